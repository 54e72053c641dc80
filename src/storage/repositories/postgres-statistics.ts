import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** The events are analysed once the rows written since their last analysis reach this, and a tenth of the rows then (autovacuum's default rule). */
const EVENTS_ANALYZE_AFTER_ROWS = 10_000;
/** The dictionary is analysed once the values added since its last analysis reach this, and a tenth of what it held then. */
const DICTIONARY_ANALYZE_AFTER_VALUES = 50;

export interface PostgresStatistics {
  /** Distinct (field, value) pairs an ingest is adding to the `__contains` dictionary. */
  addingDictionaryValues(count: number): void;
  /** After an ingest of `written` events committed: analyses what grew enough since its last analysis. */
  afterIngest(written: number): Promise<void>;
}

/**
 * What PostgreSQL's planner knows about the events and the `__contains` dictionary, refreshed by
 * the service after ingests: autovacuum may be off, and otherwise gets there only at its next
 * round. Each table is analysed once what was written since its last analysis reaches a tenth
 * of what it held then (and a floor), counted over ingests: many small ingests after a large
 * one each stay under any one-request threshold, and with the statistics of the large one
 * alone the planner takes that company for the whole table, and its values for the whole
 * dictionary (which it then reads by a sequential scan, planned anew on every `__contains`).
 * Analysing the events samples the table (most of a second at a million rows)
 * and analyses the dictionary with it; the dictionary, one row per distinct value of a key, is
 * analysed on its own (a few ms) in between. The counts are this process's: another replica's
 * ingests refresh the statistics through its own.
 */
export function createPostgresStatistics(db: Kysely<DB>): PostgresStatistics {
  const events = growthOf(EVENTS_ANALYZE_AFTER_ROWS);
  const values = growthOf(DICTIONARY_ANALYZE_AFTER_VALUES);

  const rowsOf = async (table: 'events' | 'event_key_values') => {
    const { rows } = await sql<{ row_count: string }>`select reltuples::bigint as row_count from pg_class where oid = ${table}::regclass`.execute(db);
    return Math.max(0, Number(rows[0]?.row_count ?? 0));
  };

  const analyse = async (analysed: readonly { table: 'events' | 'event_key_values'; growth: Growth }[]) => {
    for (const { growth } of analysed) growth.restart();
    await sql.raw(`analyze ${analysed.map(({ table }) => table).join(', ')}`).execute(db);
    for (const { table, growth } of analysed) growth.analysedAt(await rowsOf(table));
  };

  return {
    addingDictionaryValues(count) {
      values.add(count);
    },
    async afterIngest(written) {
      events.add(written);
      if (events.due())
        return analyse([
          { table: 'events', growth: events },
          { table: 'event_key_values', growth: values },
        ]);
      if (values.due()) return analyse([{ table: 'event_key_values', growth: values }]);
    },
  };
}

interface Growth {
  add(rows: number): void;
  /** What was written since the last analysis reaches a tenth of the rows then, and the floor. */
  due(): boolean;
  /** An analysis starts: what is written from now on counts towards the next one. */
  restart(): void;
  analysedAt(rows: number): void;
}

function growthOf(floor: number): Growth {
  let sinceAnalysis = 0;
  let atAnalysis = 0;
  return {
    add: (rows) => void (sinceAnalysis += rows),
    due: () => sinceAnalysis >= Math.max(floor, atAnalysis / 10),
    restart: () => void (sinceAnalysis = 0),
    analysedAt: (rows) => void (atAnalysis = rows),
  };
}
