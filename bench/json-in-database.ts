// Who should write the JSON of a 10,000-event page: nobody at read time (each event's JSON stored
// when it is written, read in chunks of 500 and joined; what the service does), Node (rows read
// in chunks of 500, mapped by toApiEvent, JSON.stringify per chunk) or the database (json_object
// on SQLite, json_build_object on PostgreSQL, one text per event, joined per chunk; or the
// whole page as one json_group_array / json_agg text). Times each way and says whether its
// bytes equal the service's.
// With --edge, three events carry numbers JSON.stringify writes differently (1/3, 1e-7, 1e16).
// Usage: node --import tsx bench/json-in-database.ts [--edge] sqlite:/tmp/x.db | postgres://.../db
import { sql, type RawBuilder } from 'kysely';
import { EventSchema, type StoredEvent } from '../src/domain/events/event.js';
import { openDatabase, type Database } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrator.js';
import { createEventsRepository } from '../src/storage/repositories/events-repository.js';
import { EVENT_COLUMNS, storedEvents } from '../src/storage/tables/events.js';
import { createUnitOfWork } from '../src/storage/unit-of-work.js';
import { toApiEvent } from '../src/domain/events/event-json.js';
import { companyEvents } from './lib/data.js';

const EVENTS = 10_000;
const CHUNK = 500;
const edge = process.argv.includes('--edge');
const url = process.argv.slice(2).find((arg) => arg !== '--edge') ?? 'sqlite:/tmp/wrs-json-in-database.db';
const EDGE_NUMBERS = [1 / 3, 1e-7, 1e16];
const ROUNDS = edge ? 1 : 25;
const company = `json-in-db-${Date.now()}`;

const database = openDatabase(url);
await migrateToLatest(database.db);
const events = createEventsRepository(database);
const stored = [...companyEvents(7, EVENTS)].map((event, i) => ({
  ...event,
  company_id: company,
  version_object: i % 10 === 0 ? JSON.stringify({ steps: ['a', 'b'], n: i }) : null,
  ...(edge && i < EDGE_NUMBERS.length ? { seconds_active: EDGE_NUMBERS[i] } : {}),
})) as unknown as StoredEvent[];
await createUnitOfWork(database.db).run(async (scope) => events.write(await events.prepare(company, stored), scope));

const query = { filters: [], order: { field: 'created_at', direction: 'asc' }, limit: EVENTS, offset: 0 } as const;
const head = `{"count":${EVENTS},"results":[`;

/** What the service sends: each event's stored JSON (migration 0010), read in chunks through the snapshot and joined. */
async function storedJson(): Promise<string> {
  const page = await events.openList(company, query, CHUNK);
  const parts: string[] = [];
  for (let chunk = await page.next(); chunk.length > 0; chunk = await page.next()) parts.push(chunk.join(','));
  await page.close();
  return `${head}${parts.join(',')}]}`;
}

/** What the service did before the stored JSON: the columns read in chunks, serialised in Node. */
async function inNode(): Promise<string> {
  const snapshot = await database.openSnapshot();
  const rows = snapshot.chunks<StoredEvent>(pageSql.compile(database.db) as never, CHUNK);
  const parts: string[] = [];
  for (let chunk = await rows.next(); chunk.length > 0; chunk = await rows.next()) {
    parts.push(JSON.stringify(storedEvents(chunk as never).map(toApiEvent)).slice(1, -1));
  }
  await snapshot.release();
  return `${head}${parts.join(',')}]}`;
}

const fields = Object.keys(EventSchema.properties).filter((field) => field !== 'version_object');
const pageSql = sql`select ${sql.join(EVENT_COLUMNS.map((column) => sql.ref(column)))} from events where company_id = ${company} order by created_at, id limit ${EVENTS}`;

/** One JSON object per event, built by the database; version_object only when there is one. */
const REAL_FIELDS = ['like_value', 'seconds_active', 'seconds_running'];

function eventObject(database: Database): RawBuilder<unknown> {
  if (database.dialect === 'sqlite') {
    // SQLite writes a whole REAL as 373.0 where JavaScript writes 373.
    const value = (field: string) =>
      field === 'excluded'
        ? "json(case when excluded then 'true' else 'false' end)"
        : REAL_FIELDS.includes(field)
          ? `case when ${field} = cast(${field} as integer) then cast(${field} as integer) else ${field} end`
          : field;
    const pairs = sql.raw(fields.map((field) => `'${field}', ${value(field)}`).join(', '));
    return sql`case when version_object is null then json_object(${pairs}) else json_object(${pairs}, 'version_object', json(version_object)) end`;
  }
  // json_build_object puts spaces around its colons; row_to_json of a row with named columns does not.
  const columns = sql.raw(fields.join(', '));
  return sql`case when version_object is null then row_to_json((select r from (select ${columns}) as r))
    else row_to_json((select r from (select ${columns}, version_object::json as version_object) as r)) end::text`;
}

async function inDatabasePerEvent(): Promise<string> {
  const snapshot = await database.openSnapshot();
  const rows = snapshot.chunks<{ j: string }>(
    sql`select ${eventObject(database)} as j from (${pageSql}) as page order by created_at, id`.compile(database.db),
    CHUNK,
  );
  const parts: string[] = [];
  for (let chunk = await rows.next(); chunk.length > 0; chunk = await rows.next()) parts.push(chunk.map((row) => row.j).join(','));
  await snapshot.release();
  return `${head}${parts.join(',')}]}`;
}

async function inDatabaseWhole(): Promise<string> {
  const aggregate = database.dialect === 'sqlite' ? sql`json_group_array(json(j))` : sql`json_agg(j::json order by created_at, id)::text`;
  const inner = sql`select ${eventObject(database)} as j, created_at, id from (${pageSql}) as page order by created_at, id`;
  const { rows } = await sql<{ page: string }>`select ${aggregate} as page from (${inner}) as ordered`.execute(database.db);
  return `${head}${rows[0]!.page.slice(1, -1)}]}`;
}

const ways = {
  'stored JSON (the service)': storedJson,
  'node, from the columns': inNode,
  'database, one text per event': inDatabasePerEvent,
  'database, one text per page': inDatabaseWhole,
};
const reference = await storedJson();
console.log(
  `${database.dialect}: ${EVENTS} events, ${(reference.length / 2 ** 20).toFixed(1)} MB of JSON, fastest and median of ${ROUNDS} rounds (the machine is shared)`,
);
for (const [name, way] of Object.entries(ways)) {
  const times: number[] = [];
  let body = '';
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    body = await way();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const same = body === reference;
  let firstDifference = '';
  if (!same) {
    let at = 0;
    while (body[at] === reference[at]) at++;
    firstDifference = ` (first difference at byte ${at}: node ${JSON.stringify(reference.slice(at - 20, at + 20))}, database ${JSON.stringify(body.slice(at - 20, at + 20))})`;
  }
  console.log(
    `- ${name}: ${times[0]!.toFixed(1)} / ${times[Math.floor(ROUNDS / 2)]!.toFixed(1)} ms; same bytes as the service: ${same ? 'yes' : `NO${firstDifference}`}`,
  );
}
await database.db.deleteFrom('events').where('company_id', '=', company).execute();
await database.db.deleteFrom('event_key_values').where('company_id', '=', company).execute();
await database.close();
