import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type RawBuilder, sql } from 'kysely';
import { EXPORT_KINDS, OFFBOARDING_ORDER, POSTGRES_EVENT_PARTS, TABLES } from '../../src/storage/table-registry.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const MIGRATIONS_BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * The registry of tables that the database copy, the offboarding and the company export read
 * covers the migrated schema: a migration that adds a table fails here until the table is in
 * the registry with its roles (the build then asks for each role).
 */
describeEachDatabase('the registry of tables', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  async function names(query: RawBuilder<{ name: string }>): Promise<string[]> {
    const { rows } = await query.execute(t.ctx.database.db);
    return rows
      .map((row) => row.name)
      .filter((name) => !MIGRATIONS_BOOKKEEPING.has(name))
      .filter((name) => kind !== 'postgres' || !POSTGRES_EVENT_PARTS.test(name))
      .sort();
  }

  it('names every table of the schema, and no other', async () => {
    const tables =
      kind === 'postgres'
        ? sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`
        : // Not the search index of event_key_values (a virtual table, kept by triggers, and its shadow tables).
          sql<{ name: string }>`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite_%'`;
    assert.deepEqual(await names(tables), Object.keys(TABLES).sort());
  });

  it('holds a company_id in every table, whose rows an offboarding removes or keeps', async () => {
    const withCompanyId =
      kind === 'postgres'
        ? sql<{ name: string }>`select table_name as name from information_schema.columns
            where column_name = 'company_id' and table_schema = current_schema()`
        : sql<{ name: string }>`select m.name as name from sqlite_master m join pragma_table_info(m.name) p
            where m.type = 'table' and p.name = 'company_id'`;
    assert.deepEqual(await names(withCompanyId), Object.keys(TABLES).sort());
  });

  it('has, on PostgreSQL, exactly the parts of events that the registry names as such (on SQLite, none)', async () => {
    if (kind !== 'postgres') {
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(t.ctx.database.db);
      const parts = rows.filter((row) => POSTGRES_EVENT_PARTS.test(row.name));
      assert.deepEqual(parts, [], 'SQLite keeps one events table');
      return;
    }
    const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'events'::regclass`.execute(t.ctx.database.db);
    assert.ok(rows.length > 0, 'events is partitioned');
    for (const { name } of rows) assert.match(name, POSTGRES_EVENT_PARTS);
    assert.match('event_ids', POSTGRES_EVENT_PARTS);
    assert.doesNotMatch('events', POSTGRES_EVENT_PARTS);
  });

  it('orders each role with every table once', () => {
    assert.equal(new Set(OFFBOARDING_ORDER).size, OFFBOARDING_ORDER.length, 'a table is emptied twice');
    assert.equal(new Set(EXPORT_KINDS).size, EXPORT_KINDS.length, 'a table is exported twice');
  });
});
