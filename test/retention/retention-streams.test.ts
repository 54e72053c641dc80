// An event stream open while retention removes events: one that had not been sent them ends
// with the 410 feed_cursor_expired its reconnection would get; one already past them goes on.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ingestOk } from '../events/event-fixtures.js';
import { changes, settleFeed } from '../events/feed-fixtures.js';
import { idsOf, openStream, type SseClient } from '../events/sse-client.js';
import { daily, setRetention } from './retention-fixtures.js';

// No safety re-check within the test: the retention batch's own signal must reach the streams.
const STREAM_ENV = { WRS_STREAM_HEARTBEAT_MS: '200', WRS_STREAM_RECHECK_MS: '600000', WRS_RETENTION_BATCH_SIZE: '2', WRS_RETENTION_BATCH_PAUSE_MS: '0' };

describeEachDatabase('retention of events: open event streams', (kind) => {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  let t: TestApp;
  let baseUrl: string;
  const clients: SseClient[] = [];
  const open = async (company: string, path: string, headers?: Record<string, string>) => {
    const client = await openStream(baseUrl, await t.userToken(company), path, headers);
    clients.push(client);
    return client;
  };
  before(async () => {
    t = await createTestApp(kind, { clock, env: STREAM_ENV });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  it('ends a stream behind the removed events with feed_cursor_expired, never skipping them; a stream past them goes on', async () => {
    const company = 'ret-stream';
    // A kept event of type "kept", then old events of another type, past the period once it is set.
    await ingestOk(
      t,
      company,
      daily('kept', 1, '2026-02-28T00:00:00.000Z').map((event) => ({ ...event, type: 'kept' })),
    );
    await ingestOk(t, company, daily('old', 5, '2026-01-05T00:00:00.000Z'));
    await settleFeed(t);
    const afterKept = (await changes(t, company, { limit: 1 })).next_cursor;

    // Follows only "kept": the old events never reach it, so its position stays before them.
    const behind = await open(company, `/v1/events/stream?type=kept&after=${afterKept}`);
    // Follows everything: it is sent the old events before they are removed.
    const past = await open(company, `/v1/events/stream?after=${afterKept}`);
    assert.equal(behind.status, 200);
    assert.equal(past.status, 200);
    assert.deepEqual(idsOf(await past.waitFor(5)), ['old-1', 'old-2', 'old-3', 'old-4', 'old-5']);

    await setRetention(t, company, 30);
    assert.equal((await t.ctx.retention.sweep()).removed, 5);

    const [expiry] = await behind.waitFor(1);
    assert.equal(expiry!.event, 'error');
    const error = JSON.parse(expiry!.data!) as { code: string; message: string };
    assert.equal(error.code, 'feed_cursor_expired');
    assert.match(error.message, /retention.*start again from the beginning.*or from now/s);
    await behind.closed;
    // What the stream says is what its reconnection gets.
    const reconnected = await open(company, `/v1/events/stream?type=kept&after=${afterKept}`);
    assert.equal(reconnected.status, 410, reconnected.errorBody);
    assert.equal(JSON.parse(reconnected.errorBody).code, 'feed_cursor_expired');

    // The stream that had been sent them missed nothing: it stays open and takes what comes next.
    assert.equal(past.isClosed(), false);
    await ingestOk(t, company, daily('new', 1, '2026-03-01T00:00:00.000Z'));
    assert.deepEqual(idsOf(await past.waitFor(6)).slice(5), ['new-1']);
    assert.ok(
      past.messages.every((message) => message.event === 'event'),
      'no error for a stream past the removed events',
    );
  });
});
