import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';
import { EVENT_COLUMNS_0010, eventJson0010, type EventRow0010 } from './frozen/event-json-0010.js';

/** Events given their JSON per statement while the stored ones are filled in. */
const BACKFILL_ROWS = 5000;

/**
 * Each event's JSON as the API shows it (`body`), written with the event from now on: a page
 * reads one text per event and joins them, instead of reading twenty columns and building the
 * JSON again on every read (docs/events.md, "The stored JSON of each event"). Events stored
 * before are filled in here, in batches, by a frozen copy of the serialiser the service wrote
 * with then, so their answers do not change by a byte.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table events add column body text`.execute(db);
    await backfillPostgres(db);
    await sql`alter table events alter column body set not null`.execute(db);
    return;
  }
  // SQLite adds a NOT NULL column only with a default; every event gets its JSON just below.
  await sql`alter table events add column body text not null default ''`.execute(db);
  await backfillSqlite(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table events drop column body`.execute(db);
}

type BackfillRow = EventRow0010 & { row_id?: number };

async function backfillSqlite(db: Kysely<any>): Promise<void> {
  const columns = sql.join(EVENT_COLUMNS_0010.map((column) => sql.ref(column)));
  for (let after = 0; ; ) {
    const { rows } =
      await sql<BackfillRow>`select rowid as row_id, ${columns} from events where rowid > ${after} order by rowid limit ${BACKFILL_ROWS}`.execute(db);
    if (rows.length === 0) return;
    after = rows.at(-1)!.row_id!;
    const ids = rows.map((row) => row.row_id!);
    const bodies = rows.map(eventJson0010);
    await sql`update events set body = filled.body
      from (select value ->> 0 as row_id, value ->> 1 as body from json_each(${JSON.stringify(ids.map((id, i) => [id, bodies[i]]))})) as filled
      where events.rowid = filled.row_id`.execute(db);
  }
}

async function backfillPostgres(db: Kysely<any>): Promise<void> {
  const columns = sql.join(EVENT_COLUMNS_0010.map((column) => sql.ref(column)));
  let after: { company_id: string; id: string } | undefined;
  for (;;) {
    const from = after ? sql`where (company_id, id) > (${after.company_id}, ${after.id})` : sql``;
    const { rows } = await sql<EventRow0010>`select ${columns} from events ${from} order by company_id, id limit ${BACKFILL_ROWS}`.execute(db);
    if (rows.length === 0) return;
    const last = rows.at(-1)!;
    after = { company_id: last.company_id, id: last.id };
    const companies = rows.map((row) => row.company_id);
    const ids = rows.map((row) => row.id);
    const bodies = rows.map(eventJson0010);
    await sql`update events set body = filled.body
      from unnest(${companies}::text[], ${ids}::text[], ${bodies}::text[]) as filled(company_id, id, body)
      where events.company_id = filled.company_id and events.id = filled.id`.execute(db);
  }
}
