import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import * as legacyLimitMigration from '../../src/storage/migrations/0013_feed_cursor_legacy_limit.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from './event-fixtures.js';
import { changes, followToEnd } from './feed-fixtures.js';

interface Position {
  xid: number;
  seq: number;
}

/** The cursor of versions before sealing, as they made it: a version byte, a hash of the company, the position in clear. */
function legacyCursor(companyId: string, { xid, seq }: Position): string {
  const bytes = Buffer.alloc(25);
  bytes[0] = 1;
  createHash('sha256').update('wrs events feed\n').update(companyId).digest().subarray(0, 8).copy(bytes, 1);
  bytes.writeBigUInt64BE(BigInt(xid), 9);
  bytes.writeBigUInt64BE(BigInt(seq), 17);
  return bytes.toString('base64url');
}

describeEachDatabase('change-feed cursors are sealed', (kind) => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp(kind);
  });
  after(() => t.close());

  const positionOf = async (companyId: string, id: string): Promise<Position> => {
    const row = await sql<{ xid: string; seq: string }>`select ${kind === 'postgres' ? sql`feed_xid::text` : sql`0`} as xid, feed_seq as seq
      from events where company_id = ${companyId} and id = ${id}`.execute(t.ctx.database.db);
    return { xid: Number(row.rows[0]!.xid), seq: Number(row.rows[0]!.seq) };
  };
  /** Each event's cursor: the next_cursor of a page of one event. */
  const cursorsOf = async (companyId: string): Promise<{ id: string; cursor: string }[]> => {
    const found: { id: string; cursor: string }[] = [];
    let afterCursor: string | undefined;
    for (;;) {
      const page = await changes(t, companyId, { limit: 1, ...(afterCursor ? { after: afterCursor } : {}) });
      if (page.count === 0) return found;
      found.push({ id: page.results[0]!.id, cursor: page.next_cursor });
      afterCursor = page.next_cursor;
    }
  };

  it("shows no position: two companies' cursors after interleaved ingests share nothing and do not sort by position", async () => {
    for (let i = 0; i < 12; i++) {
      await ingestOk(t, 'clear-a', [anEvent({ id: `a-${i}` })]);
      await ingestOk(t, 'clear-b', [anEvent({ id: `b-${i}` })]);
    }
    const all = [...(await cursorsOf('clear-a')), ...(await cursorsOf('clear-b'))];
    assert.equal(all.length, 24);
    const withPositions = await Promise.all(
      all.map(async (entry) => ({ ...entry, position: await positionOf(entry.id.startsWith('a-') ? 'clear-a' : 'clear-b', entry.id) })),
    );
    for (const { cursor, position } of withPositions) {
      assert.match(cursor, /^[A-Za-z0-9_-]{32}$/);
      const bytes = Buffer.from(cursor, 'base64url');
      const seq = Buffer.alloc(8);
      seq.writeBigUInt64BE(BigInt(position.seq));
      assert.ok(!bytes.includes(seq.subarray(2)), `the sequence number ${position.seq} shows in ${cursor}`);
      if (position.xid > 0) {
        const xid = Buffer.alloc(8);
        xid.writeBigUInt64BE(BigInt(position.xid));
        assert.ok(!bytes.includes(xid.subarray(3)), `the transaction id ${position.xid} shows in ${cursor}`);
      }
    }
    // Nothing shared: no two cursors begin alike (a company tag or the high bytes of a position would).
    const prefixes = new Set(all.map(({ cursor }) => Buffer.from(cursor, 'base64url').subarray(0, 4).toString('hex')));
    assert.equal(prefixes.size, all.length, 'cursors share a prefix');
    const byPosition = [...withPositions].sort((x, y) => x.position.xid - y.position.xid || x.position.seq - y.position.seq);
    const byText = [...withPositions].sort((x, y) => (x.cursor < y.cursor ? -1 : 1));
    assert.notDeepEqual(
      byText.map((entry) => entry.id),
      byPosition.map((entry) => entry.id),
      'cursors sort as their positions do',
    );
    const ofA = withPositions.filter((entry) => entry.id.startsWith('a-'));
    assert.notDeepEqual(
      [...ofA].sort((x, y) => (x.cursor < y.cursor ? -1 : 1)).map((entry) => entry.id),
      ofA.map((entry) => entry.id),
      "a company's own cursors sort as its events do",
    );

    // Each is still a cursor of its company only, and resumes exactly.
    const [third] = all.filter((entry) => entry.id === 'a-2');
    assert.deepEqual(
      (await followToEnd(t, 'clear-a', third!.cursor)).ids,
      Array.from({ length: 9 }, (_, i) => `a-${i + 3}`),
    );
    const foreign = await t.as('clear-b', { method: 'GET', url: `/v1/events/changes?after=${third!.cursor}` });
    assert.equal(foreign.statusCode, 400);
    assert.deepEqual(foreign.json().invalid_params, ['after']);
    assert.match(foreign.json().message, /not a change-feed cursor of this company/);
  });

  it('resumes exactly on another replica with the same key, and is refused under another key', async () => {
    await ingestOk(t, 'replica-co', [anEvent({ id: 'r-1' }), anEvent({ id: 'r-2' }), anEvent({ id: 'r-3' })]);
    const first = await changes(t, 'replica-co', { limit: 1 });
    const replica = await createTestApp(kind, { database: t.database });
    const otherKey = await createTestApp(kind, { database: t.database, env: { WRS_ENCRYPTION_KEY: '11'.repeat(32) } });
    try {
      const resumed = await replica.as('replica-co', { method: 'GET', url: `/v1/events/changes?after=${first.next_cursor}` });
      assert.equal(resumed.statusCode, 200, resumed.body);
      assert.deepEqual(
        resumed.json().results.map((event: { id: string }) => event.id),
        ['r-2', 'r-3'],
      );
      const empty = await replica.as('replica-co', { method: 'GET', url: `/v1/events/changes?after=${resumed.json().next_cursor}` });
      assert.equal(empty.json().next_cursor, resumed.json().next_cursor, 'nothing new: next_cursor equals after');
      const refused = await otherKey.as('replica-co', { method: 'GET', url: `/v1/events/changes?after=${first.next_cursor}` });
      assert.equal(refused.statusCode, 400);
    } finally {
      await replica.close();
      await otherKey.close();
    }
  });

  it('reads a cursor from before sealing for its company, no further than the feed stood at the upgrade', async () => {
    await ingestOk(t, 'legacy-co', [anEvent({ id: 'l-1' }), anEvent({ id: 'l-2' }), anEvent({ id: 'l-3' }), anEvent({ id: 'l-4' })]);
    // The upgrade, as migration 0013 runs it, with these events stored.
    await legacyLimitMigration.down(t.ctx.database.db);
    await legacyLimitMigration.up(t.ctx.database.db);
    await ingestOk(t, 'legacy-co', [anEvent({ id: 'l-5' })]);

    const held = legacyCursor('legacy-co', await positionOf('legacy-co', 'l-2'));
    const resumed = await changes(t, 'legacy-co', { after: held });
    assert.deepEqual(
      resumed.results.map((event) => event.id),
      ['l-3', 'l-4', 'l-5'],
      'resumed exactly',
    );
    assert.match(resumed.next_cursor, /^[A-Za-z0-9_-]{32}$/, 'answered with a sealed cursor');

    // One made up past the upgrade reads from where the feed stood then: it tells nothing of later positions.
    const pastUpgrade = legacyCursor('legacy-co', await positionOf('legacy-co', 'l-5'));
    assert.deepEqual(
      (await changes(t, 'legacy-co', { after: pastUpgrade })).results.map((event) => event.id),
      ['l-5'],
    );
    const farAway = legacyCursor('legacy-co', { xid: 2 ** 50, seq: 2 ** 50 });
    assert.deepEqual(
      (await changes(t, 'legacy-co', { after: farAway })).results.map((event) => event.id),
      ['l-5'],
    );

    const foreign = await t.as('clear-a', { method: 'GET', url: `/v1/events/changes?after=${held}` });
    assert.equal(foreign.statusCode, 400);
    assert.match(foreign.json().message, /another company/);
    // A company that had no events at the upgrade reads such a cursor from the beginning.
    await ingestOk(t, 'new-co', [anEvent({ id: 'n-1' })]);
    assert.deepEqual(
      (await changes(t, 'new-co', { after: legacyCursor('new-co', { xid: 2 ** 40, seq: 7 }) })).results.map((event) => event.id),
      ['n-1'],
    );
  });
});
