import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** An ingest this large refreshes the statistics of the events and of their dictionary. */
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
 * round. A large ingest analyses both tables (the events' analysis samples the table: most of a
 * second at a million rows). The dictionary, one row per distinct value of a key, is analysed
 * on its own (a few ms) once it has grown by a tenth: many small ingests after a large one never
 * reach the events' threshold, and with the statistics of the large one alone the planner takes
 * that company's values for the whole dictionary and reads them by a sequential scan (planned
 * anew) on every `__contains`.
 */
export function createPostgresStatistics(db: Kysely<DB>): PostgresStatistics {
  let valuesSinceAnalysis = 0;
  let valuesAtAnalysis = 0;

  const analysed = async (tables: 'events, event_key_values' | 'event_key_values') => {
    valuesSinceAnalysis = 0;
    await sql.raw(`analyze ${tables}`).execute(db);
    const { rows } = await sql<{ value_count: string }>`select reltuples::bigint as value_count from pg_class where oid = 'event_key_values'::regclass`.execute(db);
    valuesAtAnalysis = Math.max(0, Number(rows[0]?.value_count ?? 0));
  };

  return {
    addingDictionaryValues(count) {
      valuesSinceAnalysis += count;
    },
    async afterIngest(written) {
      if (written >= EVENTS_ANALYZE_AFTER_ROWS) return analysed('events, event_key_values');
      if (valuesSinceAnalysis >= Math.max(DICTIONARY_ANALYZE_AFTER_VALUES, valuesAtAnalysis / 10)) return analysed('event_key_values');
    },
  };
}
