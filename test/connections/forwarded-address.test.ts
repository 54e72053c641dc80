import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { openStream, type SseClient } from '../events/sse-client.js';

const PER_ADDRESS = 2;
const FREED_WITHIN_MS = 5_000;

describe('open requests per forwarded client address behind a trusted proxy', () => {
  let t: TestApp;
  let baseUrl: string;
  const clients: SseClient[] = [];
  /** A stream as the balancer would pass it on: every request comes from 127.0.0.1, the client named in X-Forwarded-For. */
  const streamFrom = async (client: string): Promise<SseClient> => {
    const stream = await openStream(baseUrl, await t.userToken(`co-${client}`), '/v1/events/stream', { 'x-forwarded-for': client });
    clients.push(stream);
    return stream;
  };
  const healthFrom = (client: string): Promise<Response> => fetch(`${baseUrl}/healthz`, { headers: { 'x-forwarded-for': client } });

  before(
    async () => {
      t = await createTestApp('sqlite', {
        env: { WRS_TRUST_PROXY: 'true', WRS_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS), WRS_STREAM_RECHECK_MS: '600000' },
      });
      baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    },
    { timeout: 60_000 },
  );
  after(
    async () => {
      for (const client of clients) client.close();
      await t.close();
    },
    { timeout: 60_000 },
  );

  it('refuses one forwarded address over its share with 429 and Retry-After while another is served', { timeout: 60_000 }, async () => {
    const held = await Promise.all(Array.from({ length: PER_ADDRESS }, () => streamFrom('203.0.113.7')));
    assert.deepEqual(
      held.map((stream) => stream.status),
      Array(PER_ADDRESS).fill(200),
    );

    const refused = await healthFrom('203.0.113.7');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    const body = (await refused.json()) as { code: string; message: string };
    assert.equal(body.code, 'rate_limited');
    assert.match(body.message, new RegExp(`${PER_ADDRESS} requests open`));
    assert.match(body.message, /WRS_MAX_CONNECTIONS_PER_ADDRESS/);
    assert.equal((await streamFrom('203.0.113.7')).status, 429);

    // Another client behind the same balancer (the same TCP address) is served, streams included.
    assert.equal((await healthFrom('198.51.100.9')).status, 200);
    assert.equal((await streamFrom('198.51.100.9')).status, 200);
    // IPv6 clients share by /64, as for the rate limits.
    const v6 = await Promise.all([streamFrom('2001:db8:1:2::10'), streamFrom('2001:db8:1:2::11')]);
    assert.deepEqual(
      v6.map((stream) => stream.status),
      [200, 200],
    );
    assert.equal((await healthFrom('2001:db8:1:2:ffff::1')).status, 429);
    assert.equal((await healthFrom('2001:db8:1:3::1')).status, 200);

    // A finished request gives its place back: the first client is served again once a stream closes.
    held[0]!.close();
    const started = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - started < FREED_WITHIN_MS) {
      status = (await healthFrom('203.0.113.7')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(status, 200);
  });

  it('short requests hold a place only while they run', { timeout: 60_000 }, async () => {
    for (let i = 0; i < PER_ADDRESS * 5; i++) assert.equal((await healthFrom('192.0.2.44')).status, 200);
  });
});
