import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createAppContext, type AppContext } from '../../src/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/app.js';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingest, ingestOk, listEvents } from './event-fixtures.js';
import { changes, settleFeed } from './feed-fixtures.js';
import { idsOf, openStream, type SseClient } from './sse-client.js';

// No safety re-check within a test: only the change signal may deliver.
const STREAM_ENV = { WRS_STREAM_HEARTBEAT_MS: '200', WRS_STREAM_MAX_BUFFER_BYTES: '65536', WRS_STREAM_RECHECK_MS: '600000' };

describeEachDatabase('events stream: GET /v1/events/stream', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  const clients: SseClient[] = [];
  const open = async (company: string, path?: string, headers?: Record<string, string>) => {
    const client = await openStream(baseUrl, await t.userToken(company), path, headers);
    clients.push(client);
    return client;
  };
  before(async () => {
    t = await createTestApp(kind, { env: STREAM_ENV });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  it('starts at the live end and delivers each new event once, with id, event and data', async () => {
    await ingestOk(t, 'live-co', [anEvent({ id: 'old' })]);
    // On PostgreSQL the live end lies before events still held behind older open transactions.
    await settleFeed(t);
    const client = await open('live-co');
    assert.equal(client.status, 200);
    assert.match(String(client.headers['content-type']), /^text\/event-stream/);
    assert.equal(client.headers['content-encoding'], undefined);
    assert.ok(client.headers['x-request-id']);
    assert.equal(client.headers['x-content-type-options'], 'nosniff');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await ingestOk(t, 'live-co', [anEvent({ id: 'new-1', type: 'a' }), anEvent({ id: 'new-2', type: 'b' })]);
    const messages = await client.waitFor(2);
    assert.deepEqual(idsOf(messages), ['new-1', 'new-2']);
    assert.ok(messages.every((message) => message.event === 'event'));
    // The data is the Event as the list shows it, and each id is a change-feed cursor.
    const listed = (await listEvents(t, 'live-co', 'limit=10')).json().results;
    assert.deepEqual(
      JSON.parse(messages[1]!.data!),
      listed.find((event: { id: string }) => event.id === 'new-2'),
    );
    const fromId = await changes(t, 'live-co', { after: messages[0]!.id! });
    assert.deepEqual(
      fromId.results.map((event) => event.id),
      ['new-2'],
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(client.messages.length, 2);
  });

  it('hands one read to many clients at the same position: every one gets the event at once', async () => {
    const many = await Promise.all(Array.from({ length: 8 }, () => open('many-co')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await ingestOk(t, 'many-co', [anEvent({ id: 'for-all' })]);
    for (const client of many) assert.deepEqual(idsOf(await client.waitFor(1, 2000)), ['for-all']);
    assert.ok(Date.now() - started < 2000);
  });

  it('resumes after Last-Event-ID (which wins over after) and after the after parameter, and filters by type', async () => {
    await ingestOk(
      t,
      'resume-co',
      ['r1', 'r2', 'r3', 'r4'].map((id, i) => anEvent({ id, type: i % 2 === 0 ? 'even' : 'odd' })),
    );
    const feed = await changes(t, 'resume-co');
    const afterFirst = feed.next_cursor && (await changes(t, 'resume-co', { limit: 1 })).next_cursor;
    const byHeader = await open('resume-co', `/v1/events/stream?after=${feed.next_cursor}`, { 'last-event-id': afterFirst });
    assert.deepEqual(idsOf(await byHeader.waitFor(3)), ['r2', 'r3', 'r4']);
    const byQuery = await open('resume-co', `/v1/events/stream?after=${afterFirst}`);
    assert.deepEqual(idsOf(await byQuery.waitFor(3)), ['r2', 'r3', 'r4']);
    const typed = await open('resume-co', `/v1/events/stream?type=even&after=${afterFirst}`);
    assert.deepEqual(idsOf(await typed.waitFor(1)), ['r3']);
    await ingestOk(t, 'resume-co', [anEvent({ id: 'r5', type: 'odd' }), anEvent({ id: 'r6', type: 'even' })]);
    assert.deepEqual(idsOf(await typed.waitFor(2)), ['r3', 'r6']);
    assert.deepEqual(idsOf(await byHeader.waitFor(5)), ['r2', 'r3', 'r4', 'r5', 'r6']);
    // A client that reconnects with its last id gets what it missed, and nothing twice.
    const lastId = byQuery.messages[1]!.id!;
    byQuery.close();
    const again = await open('resume-co', '/v1/events/stream', { 'last-event-id': lastId });
    assert.deepEqual(idsOf(await again.waitFor(3)), ['r4', 'r5', 'r6']);
  });

  it('sends a ping comment at the heartbeat interval', async () => {
    const client = await open('ping-co');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const pings = client.comments.filter((comment) => comment === 'ping').length;
    assert.ok(pings >= 2 && pings <= 5, `pings: ${pings}`);
  });

  it("refuses a malformed Last-Event-ID or after, and another company's cursor, with 400 before streaming", async () => {
    const own = (await changes(t, 'bad-co')).next_cursor;
    const header = await open('bad-co', '/v1/events/stream', { 'last-event-id': 'garbage' });
    assert.equal(header.status, 400);
    assert.equal(JSON.parse(header.errorBody).code, 'invalid_header');
    assert.equal(JSON.parse(header.errorBody).invalid_header, 'Last-Event-ID');
    const query = await open('bad-co', '/v1/events/stream?after=garbage');
    assert.equal(query.status, 400);
    assert.deepEqual(JSON.parse(query.errorBody).invalid_params, ['after']);
    const foreign = await open('other-co', '/v1/events/stream', { 'last-event-id': own });
    assert.equal(foreign.status, 400);
    assert.match(JSON.parse(foreign.errorBody).message, /not a change-feed cursor of this company/);
    const unknown = await open('bad-co', '/v1/events/stream?limit=5');
    assert.equal(unknown.status, 400);
    assert.deepEqual(JSON.parse(unknown.errorBody).invalid_params, ['limit']);
  });

  it('keeps companies apart', async () => {
    const mine = await open('own-co');
    const theirs = await open('their-co');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await ingestOk(t, 'their-co', [anEvent({ id: 'theirs' })]);
    await ingestOk(t, 'own-co', [anEvent({ id: 'mine' })]);
    assert.deepEqual(idsOf(await mine.waitFor(1)), ['mine']);
    assert.deepEqual(idsOf(await theirs.waitFor(1)), ['theirs']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(mine.messages.length, 1);
  });

  it('drops a client that does not read once its unsent data pass the bound; it resumes with Last-Event-ID', async () => {
    // The default bound (1 MiB): a reading client takes pages of 500 KB in its stride.
    const own = await createTestApp(kind, { env: { WRS_STREAM_HEARTBEAT_MS: '60000' } });
    const url = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await own.userToken('slow-co');
    const mine: SseClient[] = [];
    try {
      const slow = await openStream(url, token);
      const fast = await openStream(url, token);
      mine.push(slow, fast);
      await new Promise((resolve) => setTimeout(resolve, 100));
      slow.pause();
      const text = 'x'.repeat(10_000);
      const perIngest = 50;
      const total = 2000;
      for (let batch = 0; batch < total / perIngest; batch++) {
        const events = Array.from({ length: perIngest }, (_, i) => anEvent({ id: `big-${String(batch * perIngest + i).padStart(5, '0')}`, text }));
        const response = await ingest(own, 'slow-co', events);
        assert.equal(response.statusCode, 200);
        // Both clients stay at the live end, where every new event is sent and the bound is
        // checked; a client still catching up (a full page behind) waits for its buffer instead.
        await fast.waitFor((batch + 1) * perIngest, 30_000);
      }
      // Reading again, the slow client gets what the network held for it, then the end.
      slow.resume();
      await Promise.race([slow.closed, new Promise((_, fail) => setTimeout(() => fail(new Error('the slow client was not dropped')), 10_000))]);
      assert.ok(slow.messages.length < total, 'the slow client was dropped before it got everything');
      const lastId = slow.messages.at(-1)?.id;
      const resumed = await openStream(url, token, '/v1/events/stream', lastId ? { 'last-event-id': lastId } : {});
      mine.push(resumed);
      const rest = await resumed.waitFor(total - slow.messages.length, 30_000);
      assert.deepEqual([...idsOf(slow.messages), ...idsOf(rest)], idsOf(fast.messages));
    } finally {
      for (const client of mine) client.close();
      await own.close();
    }
  });

  it('ends open streams when the server closes', async () => {
    const other = await createTestApp(kind, { env: STREAM_ENV });
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const client = await openStream(url, await other.userToken('close-co'));
    const started = Date.now();
    await other.close();
    await client.closed;
    assert.ok(Date.now() - started < 3000);
  });
});

describeEachDatabase('events stream: a client on another replica', (kind) => {
  it(kind === 'postgres' ? 'gets an event ingested on the other replica (LISTEN/NOTIFY)' : 'SQLite serves one node: skipped', {
    skip: kind !== 'postgres',
  }, async () => {
    const first = await createTestApp(kind, { env: STREAM_ENV });
    let secondCtx: AppContext | undefined;
    let second: FastifyInstance | undefined;
    const clients: SseClient[] = [];
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        WRS_DATABASE_URL: first.database.url,
        WRS_JWT_SECRET: TEST_JWT_SECRET,
        WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        WRS_ENCRYPTION_KEY: '00'.repeat(32),
        WRS_LOG_LEVEL: 'silent',
        WRS_RATE_LIMIT_PER_MINUTE: '0',
        // The safety re-check is slow here: only the notification can deliver in time.
        WRS_STREAM_RECHECK_MS: '600000',
      });
      secondCtx = await createAppContext(config);
      second = await buildApp(secondCtx, { logger: false });
      const url = await second.listen({ port: 0, host: '127.0.0.1' });
      const client = await openStream(url, await first.userToken('replica-co'));
      clients.push(client);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      await ingestOk(first, 'replica-co', [anEvent({ id: 'from-replica-1' })]);
      assert.deepEqual(idsOf(await client.waitFor(1, 3000)), ['from-replica-1']);
      assert.ok(Date.now() - started < 2000);
    } finally {
      for (const client of clients) client.close();
      await second?.close();
      await secondCtx?.close();
      await first.close();
    }
  });
});
