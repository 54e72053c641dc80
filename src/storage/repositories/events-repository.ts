import { sql, type Kysely } from 'kysely';
import { CONTAINS_FIELDS } from '../../domain/events/event-fields.js';
import type { EventFilter, EventListQuery } from '../../domain/events/event-query.js';
import type { StoredEvent } from '../../domain/events/event.js';
import type { EventsRepository } from '../../domain/events/events-repository.port.js';
import type { TransactionScope } from '../../domain/unit-of-work.js';
import type { Database } from '../database.js';
import type { DB } from '../schema.js';
import { statementBatch } from '../sqlite-dialect.js';
import { EVENT_COLUMNS } from '../tables/events.js';
import { executorOf } from '../unit-of-work.js';
import { compileEventPage, isContainsField, matchingKeyValues, MAX_LISTED_VALUES } from './event-query-compiler.js';

const COLUMNS = EVENT_COLUMNS;
const UPDATED_COLUMNS = COLUMNS.filter((column) => column !== 'company_id' && column !== 'id');

/**
 * Rows per write. SQLite runs one prepared single-row statement per row, so a batch only bounds
 * how long one synchronous stretch holds the event loop; PostgreSQL receives a batch as one
 * JSON parameter, so its batches are bounded only by memory.
 */
const SQLITE_BATCH_ROWS = 1000;
const POSTGRES_BATCH_ROWS = 5000;
const KEY_VALUE_BATCH_ROWS = 5000;
const POSTGRES_ANALYZE_AFTER_ROWS = 10_000;

export function createEventsRepository(database: Database): EventsRepository {
  const { db, dialect } = database;
  const insert = dialect === 'postgres' ? insertPostgres : insertSqlite;
  const batchRows = dialect === 'postgres' ? POSTGRES_BATCH_ROWS : SQLITE_BATCH_ROWS;
  return {
    async list(companyId, query) {
      const matches = new Map<EventFilter, readonly string[] | null>();
      for (const filter of query.filters) {
        if (filter.operator !== 'contains' || !isContainsField(filter.field)) continue;
        const found = await matchingKeyValues(db, dialect, companyId, filter.field, String(filter.value))
          .limit(MAX_LISTED_VALUES + 1)
          .execute();
        // No stored value contains the substring: no event can match.
        if (found.length === 0) return [];
        matches.set(filter, found.length > MAX_LISTED_VALUES ? null : found.map((row) => row.value));
      }
      const rows = await compileEventPage(db, dialect, companyId, query, matches).execute();
      for (const row of rows) (row as { excluded: unknown }).excluded = row.excluded === true || row.excluded === 1;
      return rows as unknown as StoredEvent[];
    },

    async hasEvents(companyId) {
      const row = await db.selectFrom('events').select('id').where('company_id', '=', companyId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async write(companyId, events, scope) {
      const trx = executorOf(db, scope);
      const unique = lastOfEachId(events);
      for (let start = 0; start < unique.length; start += batchRows) {
        await insert(trx, unique.slice(start, start + batchRows), companyId);
      }
      await rememberKeyValues(trx, companyId, unique, knownKeyValuesOf(scope, companyId));
      return unique.length;
    },

    /**
     * The planner chooses between the created_at index and a key's index by how many rows it
     * expects; after a bulk ingest its statistics are refreshed. SQLite's `optimize` analyses
     * (with a bounded sample) only the tables that grew markedly since their last analysis;
     * PostgreSQL's autovacuum would get there too, but only after a while.
     */
    async afterBulkWrite(written) {
      if (dialect === 'sqlite') await sql`pragma optimize = 0x10012`.execute(db);
      else if (written >= POSTGRES_ANALYZE_AFTER_ROWS) await sql`analyze events, event_key_values`.execute(db);
    },
  };
}

/** The (field, value) pairs already added to the dictionary, per company, within one open transaction. */
const knownKeyValuesByScope = new WeakMap<TransactionScope, Map<string, Set<string>>>();

function knownKeyValuesOf(scope: TransactionScope, companyId: string): Set<string> {
  let byCompany = knownKeyValuesByScope.get(scope);
  if (byCompany === undefined) knownKeyValuesByScope.set(scope, (byCompany = new Map()));
  let known = byCompany.get(companyId);
  if (known === undefined) byCompany.set(companyId, (known = new Set()));
  return known;
}

/** A single-row upsert, prepared once and run for every event of the batch (see statementBatch). */
async function insertSqlite(trx: Kysely<DB>, events: readonly StoredEvent[], companyId: string): Promise<void> {
  const rows = events.map((event) =>
    COLUMNS.map((column) => {
      const value = column === 'company_id' ? companyId : event[column];
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }),
  );
  await trx.executeQuery(statementBatch(sqliteUpsertSql(trx), rows));
}

let sqliteUpsertText: string | undefined;

function sqliteUpsertSql(trx: Kysely<DB>): string {
  if (sqliteUpsertText) return sqliteUpsertText;
  const parameterShapeRow = Object.fromEntries(COLUMNS.map((column) => [column, null])) as never;
  const compiled = trx
    .insertInto('events')
    .values(parameterShapeRow)
    .onConflict((oc) => oc.columns(['company_id', 'id']).doUpdateSet(replaceAll))
    .compile();
  if (compiled.parameters.length !== COLUMNS.length) throw new Error('unexpected parameters in the events upsert');
  sqliteUpsertText = compiled.sql;
  return sqliteUpsertText;
}

/**
 * One JSON parameter per batch, unpacked by json_populate_recordset: far fewer bound values to
 * send and parse than a multi-row VALUES list.
 */
async function insertPostgres(trx: Kysely<DB>, events: readonly StoredEvent[], companyId: string): Promise<void> {
  const rows = events.map((event) => ({ ...event, company_id: companyId }));
  const columns = sql.join(COLUMNS.map((column) => sql.ref(column)));
  const updates = sql.join(UPDATED_COLUMNS.map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`));
  await sql`insert into events (${columns})
    select ${columns} from json_populate_recordset(null::events, ${JSON.stringify(rows)}::json)
    on conflict (company_id, id) do update set ${updates}`.execute(trx);
}

const replaceAll = Object.fromEntries(UPDATED_COLUMNS.map((column) => [column, sql.ref(`excluded.${column}`)])) as never;

/** The dictionary behind `__contains`: each new (field, value) of the company is added once. */
async function rememberKeyValues(
  trx: Kysely<DB>,
  companyId: string,
  events: readonly StoredEvent[],
  known: Set<string>,
): Promise<void> {
  const fresh: { company_id: string; field: string; value: string }[] = [];
  for (const event of events) {
    for (const field of CONTAINS_FIELDS) {
      const value = event[field];
      if (value === null) continue;
      const seenKey = `${field}\u0000${value}`;
      if (known.has(seenKey)) continue;
      known.add(seenKey);
      fresh.push({ company_id: companyId, field, value });
    }
  }
  for (let start = 0; start < fresh.length; start += KEY_VALUE_BATCH_ROWS) {
    await trx
      .insertInto('event_key_values')
      .values(fresh.slice(start, start + KEY_VALUE_BATCH_ROWS))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** PostgreSQL refuses an upsert that touches the same row twice in one statement. */
function lastOfEachId(events: readonly StoredEvent[]): readonly StoredEvent[] {
  const seen = new Set<string>();
  let duplicated = false;
  for (const event of events) {
    if (seen.has(event.id)) {
      duplicated = true;
      break;
    }
    seen.add(event.id);
  }
  if (!duplicated) return events;
  return [...new Map(events.map((event) => [event.id, event])).values()];
}
