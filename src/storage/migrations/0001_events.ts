import { sql, type Kysely } from 'kysely';
import { dialectOf } from './frozen/dialect.js';

/**
 * Keys that GET /v1/events filters on exactly or by range. Each gets an index that also keeps
 * the list order (created_at, id), so a filtered page reads only its own rows. The nullable
 * ones are partial (`IS NOT NULL`): a NULL never matches a filter, and most events leave most
 * keys empty, which keeps ingest cheaper.
 */
const FILTERED_KEYS = [
  { column: 'type', nullable: false },
  { column: 'flow_key', nullable: true },
  { column: 'step_key', nullable: true },
  { column: 'user_id', nullable: true },
  { column: 'connection_key', nullable: true },
  { column: 'version_key', nullable: true },
  { column: 'selected_decision', nullable: true },
  { column: 'flow_session', nullable: true },
] as const;

/** Workflow events, and the per-company dictionary of key values that serves `__contains`. */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  // Binary collation on PostgreSQL, so strings compare and sort by code point as on SQLite.
  const key = postgres ? sql`text collate "C"` : sql`text`;

  await db.schema
    .createTable('events')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('id', key, (col) => col.notNull())
    .addColumn('connection_id', key)
    .addColumn('connection_key', key)
    .addColumn('created_at', key, (col) => col.notNull())
    .addColumn('excluded', postgres ? 'boolean' : 'integer', (col) => col.notNull())
    .addColumn('flow_id', key)
    .addColumn('flow_key', key)
    .addColumn('flow_session', postgres ? 'bigint' : 'integer')
    .addColumn('like_value', postgres ? 'double precision' : 'real')
    .addColumn('seconds_active', postgres ? 'double precision' : 'real')
    .addColumn('seconds_running', postgres ? 'double precision' : 'real')
    .addColumn('selected_decision', key)
    .addColumn('step_key', key)
    .addColumn('text', key)
    .addColumn('type', key, (col) => col.notNull())
    .addColumn('updated_at', key, (col) => col.notNull())
    .addColumn('user_id', key)
    .addColumn('version_id', key)
    .addColumn('version_key', key)
    // JSON text, returned verbatim: NULL = absent, 'null' = null.
    .addColumn('version_object', 'text')
    .addPrimaryKeyConstraint('events_pk', ['company_id', 'id'])
    .execute();

  await db.schema.createIndex('events_created_idx').on('events').columns(['company_id', 'created_at', 'id']).execute();
  for (const { column, nullable } of FILTERED_KEYS) {
    let index = db.schema.createIndex(`events_${column}_idx`).on('events').columns(['company_id', column, 'created_at', 'id']);
    if (nullable) index = index.where(sql.ref(column), 'is not', null);
    await index.execute();
  }

  await db.schema
    .createTable('event_key_values')
    .addColumn('company_id', key, (col) => col.notNull())
    .addColumn('field', key, (col) => col.notNull())
    .addColumn('value', key, (col) => col.notNull())
    .addPrimaryKeyConstraint('event_key_values_pk', ['company_id', 'field', 'value'])
    .execute();

  if (postgres) {
    // pg_trgm is a trusted extension: a database owner may create it without superuser rights.
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index event_key_values_trgm_idx on event_key_values using gin (value gin_trgm_ops)`.execute(db);
  } else {
    // An FTS5 trigram index over the dictionary, kept in sync by triggers. case_sensitive 1
    // makes a phrase query an exact, case-sensitive substring match.
    await sql`create virtual table event_key_values_trigrams using fts5(
      value, content='event_key_values', content_rowid='rowid', tokenize='trigram case_sensitive 1'
    )`.execute(db);
    await sql`create trigger event_key_values_ai after insert on event_key_values begin
      insert into event_key_values_trigrams(rowid, value) values (new.rowid, new.value);
    end`.execute(db);
    await sql`create trigger event_key_values_ad after delete on event_key_values begin
      insert into event_key_values_trigrams(event_key_values_trigrams, rowid, value) values ('delete', old.rowid, old.value);
    end`.execute(db);
    await sql`create trigger event_key_values_au after update on event_key_values begin
      insert into event_key_values_trigrams(event_key_values_trigrams, rowid, value) values ('delete', old.rowid, old.value);
      insert into event_key_values_trigrams(rowid, value) values (new.rowid, new.value);
    end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    await sql`drop table if exists event_key_values_trigrams`.execute(db);
  }
  await db.schema.dropTable('event_key_values').ifExists().execute();
  await db.schema.dropTable('events').ifExists().execute();
}
