import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { idsOf, openStream, type SseClient } from '../events/sse-client.js';

const CAP = 3;
const ENV = { WRS_STREAMS_PER_COMPANY: String(CAP), WRS_STREAM_HEARTBEAT_MS: '200', WRS_STREAM_RECHECK_MS: '600000' };
/** Generous on a loaded machine: a place is given back as soon as the server sees the stream close. */
const FREED_WITHIN_MS = 5_000;

describeEachDatabase('event streams per company (WRS_STREAMS_PER_COMPANY)', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  const clients: SseClient[] = [];
  const open = async (company: string, headers?: Record<string, string>): Promise<SseClient> => {
    const client = await openStream(baseUrl, await t.userToken(company), '/v1/events/stream', headers);
    clients.push(client);
    return client;
  };
  const get = async (company: string, path: string): Promise<Response> =>
    fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${await t.userToken(company)}` } });

  /** Opens a stream of `company` once a place is free (the server sees a client leave a moment after it left). */
  const openOnceFree = async (company: string): Promise<SseClient> => {
    const started = Date.now();
    for (;;) {
      const client = await open(company);
      if (client.status === 200 || Date.now() - started > FREED_WITHIN_MS) return client;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  before(async () => {
    t = await createTestApp(kind, { env: ENV });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  it("refuses a company's stream over the cap with 429 and Retry-After; another company's streams and requests go on", async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => open('flood-co')));
    assert.deepEqual(
      held.map((client) => client.status),
      Array(CAP).fill(200),
    );

    const refused = await open('flood-co');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '5');
    const body = JSON.parse(refused.errorBody) as { code: string; message: string };
    assert.equal(body.code, 'rate_limited');
    assert.match(body.message, new RegExp(`${CAP} event streams`));
    assert.match(body.message, /WRS_STREAMS_PER_COMPANY/);

    const other = await open('quiet-co');
    assert.equal(other.status, 200);
    assert.equal((await get('quiet-co', '/v1/events?limit=1')).status, 200);
    // The company over its stream cap still makes its other requests.
    assert.equal((await get('flood-co', '/v1/events?limit=1')).status, 200);

    // The held streams and the other company's still deliver.
    await ingestOk(t, 'flood-co', [anEvent({ id: 'to-held' })]);
    await ingestOk(t, 'quiet-co', [anEvent({ id: 'to-other' })]);
    for (const client of held) assert.deepEqual(idsOf(await client.waitFor(1, 5000)), ['to-held']);
    assert.deepEqual(idsOf(await other.waitFor(1, 5000)), ['to-other']);
  });

  it('a stream that closes gives its place back, and a refused or malformed one takes none', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => open('turns-co')));
    assert.deepEqual(
      held.map((client) => client.status),
      Array(CAP).fill(200),
    );
    assert.equal((await open('turns-co')).status, 429);
    assert.equal((await open('turns-co', { 'last-event-id': 'garbage' })).status, 400);

    held[0]!.close();
    const replacement = await openOnceFree('turns-co');
    assert.equal(replacement.status, 200, 'the closed stream freed its place');
    assert.equal((await open('turns-co')).status, 429, 'the 429s and the 400 above took no place');

    for (const client of [...held.slice(1), replacement]) client.close();
    const again = await Promise.all(Array.from({ length: CAP }, () => openOnceFree('turns-co')));
    assert.deepEqual(
      again.map((client) => client.status),
      Array(CAP).fill(200),
      'every place is free again',
    );
    for (const client of again) client.close();
  });
});
