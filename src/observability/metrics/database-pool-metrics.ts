import { Gauge, type Registry } from 'prom-client';

/** The connections of the database at one moment (storage's `Database.poolUsage()` answers it). */
export interface ConnectionUsage {
  readonly inUse: number;
  readonly idle: number;
  readonly waiting: number;
  /** Null when the pool has no bound: then no maximum is reported. */
  readonly max: number | null;
}

/** Gauges read when scraped, so that taking and giving back a connection costs nothing. */
export function registerDatabasePoolMetrics(registry: Registry, usage: () => ConnectionUsage): void {
  const registers = [registry];
  new Gauge({
    name: 'wrs_db_pool_connections_in_use',
    help: 'Database connections running a query or holding a transaction.',
    registers,
    collect() {
      this.set(usage().inUse);
    },
  });
  new Gauge({
    name: 'wrs_db_pool_connections_idle',
    help: 'Database connections open and free.',
    registers,
    collect() {
      this.set(usage().idle);
    },
  });
  new Gauge({
    name: 'wrs_db_pool_waiting',
    help: 'Queries and transactions waiting for a database connection (SQLite: for the one writer).',
    registers,
    collect() {
      this.set(usage().waiting);
    },
  });
  const { max } = usage();
  if (max !== null) {
    new Gauge({
      name: 'wrs_db_pool_max_connections',
      help: 'Database connections the pool may open (WRS_DB_POOL_SIZE).',
      registers,
    }).set(max);
  }
}
