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
  let eventsSinceAnalysis = 0;
  let eventsAtAnalysis = 0;
  let valuesSinceAnalysis = 0;
  let valuesAtAnalysis = 0;

  const rowsOf = async (table: 'events' | 'event_key_values') => {
    const { rows } = await sql<{ row_count: string }>`select reltuples::bigint as row_count from pg_class where oid = ${table}::regclass`.execute(db);
    return Math.max(0, Number(rows[0]?.row_count ?? 0));
  };

  const analysed = async (tables: 'events, event_key_values' | 'event_key_values') => {
    valuesSinceAnalysis = 0;
    if (tables !== 'event_key_values') eventsSinceAnalysis = 0;
    await sql.raw(`analyze ${tables}`).execute(db);
    valuesAtAnalysis = await rowsOf('event_key_values');
    if (tables !== 'event_key_values') eventsAtAnalysis = await rowsOf('events');
  };

  return {
    addingDictionaryValues(count) {
      valuesSinceAnalysis += count;
    },
    async afterIngest(written) {
      eventsSinceAnalysis += written;
      if (eventsSinceAnalysis >= Math.max(EVENTS_ANALYZE_AFTER_ROWS, eventsAtAnalysis / 10)) return analysed('events, event_key_values');
      if (valuesSinceAnalysis >= Math.max(DICTIONARY_ANALYZE_AFTER_VALUES, valuesAtAnalysis / 10)) return analysed('event_key_values');
    },
  };
}
