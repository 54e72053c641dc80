import { sql, type Kysely, type Transaction } from 'kysely';
import { openDatabase, type Database } from '../database.js';
import { migrateToLatest } from '../migrator.js';
import { CopyRefusal } from './copy-refusal.js';
import { COPIED_TABLES, type CopiedTable } from '../table-registry.js';

/** The PostgreSQL database a copy writes into. */
export interface PostgresTarget {
  readonly db: Kysely<any>;
  /** Each table's columns and their PostgreSQL types (`boolean`, `bytea`, `xid8`, ...). */
  columnTypes(): Promise<Map<CopiedTable, Map<string, string>>>;
  close(): Promise<void>;
}

/**
 * Connects, refuses a database that already holds wrs data, then runs the migrations: the
 * schema is written only into a database that holds none of the service's rows.
 */
export async function openPostgresTarget(url: string): Promise<PostgresTarget> {
  const database = openDatabase(url, { poolSize: 1, connectTimeoutMs: 10_000, statementTimeoutMs: 0 });
  try {
    await reachable(database, url);
    await requireNoData(database.db, url);
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const db = database.db as Kysely<any>;
  return {
    db,
    async columnTypes() {
      const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
        select table_name, column_name, coalesce(nullif(data_type, 'USER-DEFINED'), udt_name) as data_type
        from information_schema.columns where table_schema = current_schema()`.execute(db);
      const types = new Map<CopiedTable, Map<string, string>>(COPIED_TABLES.map((table) => [table, new Map()]));
      for (const row of rows) types.get(row.table_name as CopiedTable)?.set(row.column_name, row.data_type);
      return types;
    },
    close: () => database.close(),
  };
}

async function reachable(database: Database, url: string): Promise<void> {
  try {
    await database.ping();
  } catch (error) {
    throw new CopyRefusal(`cannot connect to ${withoutPassword(url)}: ${describeConnectError(error)}`);
  }
}

async function requireNoData(db: Kysely<any>, url: string): Promise<void> {
  const holding: string[] = [];
  for (const table of COPIED_TABLES) {
    const { rows } = await sql<{ present: string | null }>`select to_regclass(${table}) as present`.execute(db);
    if (rows[0]?.present === null) continue;
    const row = await db.selectFrom(table).select(sql`1`.as('one')).limit(1).executeTakeFirst();
    if (row) holding.push(table);
  }
  if (holding.length > 0) {
    throw new CopyRefusal(`${withoutPassword(url)} already holds wrs data (in ${holding.join(', ')}); copy into a new, empty database (nothing was written)`);
  }
}

/** The uniqueness of the copied events' (company_id, id) on the partitioned `events` (migration 0022). */
export async function claimCopiedEventIds(trx: Transaction<any>): Promise<void> {
  await sql`insert into event_ids (company_id, id, created_at) select company_id, id, created_at from events`.execute(trx);
}

/**
 * Sets every sequence that feeds a column (a serial, an identity or a nextval default) past the
 * column's largest value. Partitions of `events` share its default: the parent's maximum covers them.
 */
export async function advanceSequences(trx: Transaction<any>): Promise<void> {
  const { rows } = await sql<{ table_name: string; column_name: string; sequence: string }>`
    select table_name, column_name,
      coalesce(pg_get_serial_sequence(quote_ident(table_name), column_name),
               substring(column_default from 'nextval\\(''([^'']+)''')) as sequence
    from information_schema.columns
    where table_schema = current_schema() and (column_default like 'nextval(%' or is_identity = 'YES')
      and not exists (select 1 from pg_class where relname = table_name and relnamespace = current_schema()::regnamespace and relispartition)`.execute(trx);
  for (const { table_name, column_name, sequence } of rows) {
    await sql`select setval(${sequence}::regclass, max_value) from (select max(${sql.ref(column_name)}) as max_value from ${sql.table(table_name)}) as m
      where max_value is not null`.execute(trx);
  }
}

export async function countRows(trx: Transaction<any>, table: CopiedTable): Promise<number> {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The URL as it may be printed: the password masked. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

function describeConnectError(error: unknown): string {
  const inner = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  return inner instanceof Error ? inner.message || (inner as { code?: string }).code || inner.name : String(inner);
}
