import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { httpRequest, type PlainResponse } from './helpers/http.js';
import { sleep } from './helpers/server-process.js';

const SEND_TIMEOUT_MS = 6000;
const WAIT_MS = 1000;
/**
 * ~3.9 KB an event: a page of a stalling company's 2,500 events (9.6 MB) is more than the
 * kernel's socket buffers take in. Few large events rather than many small ones: storing them
 * is most of the file's time otherwise.
 */
const BIG_TEXT = 'x'.repeat(3600);
const STALLING_EVENTS = 2500;

/**
 * A client that asks for a page and reads nothing: the socket is paused right after the
 * request is written, so once the kernel's buffers are full the server cannot send more.
 */
interface StalledReader {
  /** Starts reading again; resolves with everything received once the connection closes. */
  readAll(): Promise<{ received: string; error: string | undefined }>;
}

async function stalledReader(port: number, token: string, path: string): Promise<StalledReader> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
  socket.pause();
  let error: string | undefined;
  socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
  return {
    readAll() {
      let received = '';
      socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
      const closed = new Promise<{ received: string; error: string | undefined }>((resolve) => socket.once('close', () => resolve({ received, error })));
      socket.resume();
      return closed;
    },
  };
}

/** Fails with `what` unless `promise` settles within `ms` (instead of hanging the suite). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new assert.AssertionError({ message: `${what}: not within ${ms} ms` })), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// Company A (and C) open connections for large pages (limit=10000) and read nothing. Before places
// were shared per company, two such connections held both places for as long as they stayed
// open, and every other company's large page waited with them. Each test waits out the send
// timeout, so the two databases' suites run at the same time.
describeEachDatabase(
  'large pages: a company that reads nothing never stalls another',
  (kind) => {
    let t: TestApp;
    let port: number;
    const tokens: Record<string, string> = {};

    const ingest = async (company: string, count: number, text: string) => {
      const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ type: 'user_flow_step_viewed', flow_key: `f-${i % 5}`, text }));
      const response = await t.admin({
        method: 'POST',
        url: `/admin/v1/companies/${company}/events`,
        headers: { 'content-type': 'application/x-ndjson' },
        payload: lines.join('\n'),
      });
      assert.equal(response.statusCode, 200, response.body);
    };
    const openConnections = () =>
      new Promise<number>((resolve, reject) => t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    const allConnectionsClosed = async () => {
      while ((await openConnections()) > 0) await sleep(100);
    };
    const page = (company: string, limit: number): Promise<PlainResponse> =>
      httpRequest(port, 'GET', `/v1/events?limit=${limit}`, { headers: { authorization: `Bearer ${tokens[company]}` } });

    before(async () => {
      t = await createTestApp(kind, {
        env: { WRS_LARGE_PAGE_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS), WRS_LARGE_PAGE_WAIT_MS: String(WAIT_MS) },
      });
      await ingest('stall-a', STALLING_EVENTS, BIG_TEXT);
      await ingest('stall-c', STALLING_EVENTS, BIG_TEXT);
      await ingest('reader-b', 5000, 'hello');
      for (const company of ['stall-a', 'stall-c', 'reader-b']) tokens[company] = await t.userToken(company);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as { port: number }).port;
    });
    after(() => t.close());

    it('serves company B in its normal time while A holds connections open, and cuts A off after the send timeout', { timeout: 60_000 }, async () => {
      const started = performance.now();
      const stalled = await Promise.all([1, 2, 3].map(() => stalledReader(port, tokens['stall-a']!, '/v1/events?limit=10000')));
      await sleep(300);

      const answer = await within(SEND_TIMEOUT_MS - 1000, "company B's large page", page('reader-b', 5000));
      assert.equal(answer.status, 200, answer.body.slice(0, 200));
      assert.equal(answer.json().count, 5000);
      assert.ok(performance.now() - started < SEND_TIMEOUT_MS, 'B was answered before A was cut off');
      assert.ok((await openConnections()) >= 1, "A's stalled page is still open while B is served");

      // A's own second and third page wait behind its one place: 503 past the wait bound.
      // A's first page is cut off at the send timeout, which closes the last connection.
      await within(SEND_TIMEOUT_MS + 15_000, 'the stalled connection is cut off', allConnectionsClosed());
      assert.ok(performance.now() - started >= SEND_TIMEOUT_MS - 500, 'cut off at the send timeout, not before');
      const outcomes = await Promise.all(stalled.map((reader) => within(5000, 'reading what A was sent', reader.readAll())));
      const refused = outcomes.filter((outcome) => outcome.received.startsWith('HTTP/1.1 503 '));
      const cut = outcomes.filter((outcome) => outcome.received.startsWith('HTTP/1.1 200 ') || outcome.error === 'ECONNRESET');
      assert.equal(refused.length, 2, outcomes.map((outcome) => outcome.received.slice(0, 60)).join(' | '));
      for (const { received } of refused) {
        assert.match(received, /\r\nretry-after: 1\r\n/i);
        assert.equal(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).code, 'service_unavailable');
      }
      assert.equal(cut.length, 1);
      assert.ok(!cut[0]!.received.endsWith('\r\n0\r\n\r\n'), 'the page was cut before its end');

      // The place was given back: A is served again.
      const again = await within(10_000, "A's next large page", page('stall-a', 2000));
      assert.equal(again.status, 200);
    });

    it('answers 503 with Retry-After when no place frees up within the wait bound, never hangs', { timeout: 60_000 }, async () => {
      const stalled = [
        await stalledReader(port, tokens['stall-a']!, '/v1/events?limit=10000'),
        await stalledReader(port, tokens['stall-c']!, '/v1/events?limit=10000'),
      ];
      await sleep(300);
      const started = performance.now();
      const refused = await within(WAIT_MS + 4000, "company B's refusal", page('reader-b', 5000));
      assert.ok(performance.now() - started >= WAIT_MS - 100, 'B waited for a place first');
      assert.equal(refused.status, 503, refused.body.slice(0, 200));
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.json().code, 'service_unavailable');
      // Small pages never wait for a place.
      assert.equal((await within(5000, "B's small page", page('reader-b', 1000))).status, 200);

      await within(SEND_TIMEOUT_MS + 15_000, 'the stalled connections are cut off', allConnectionsClosed());
      await Promise.all(stalled.map((reader) => reader.readAll()));
      assert.equal((await page('reader-b', 5000)).status, 200);
    });
  },
  { concurrently: true },
);

describe('large page settings', () => {
  it('defaults to two places, one per company, a 10 s wait and a 2 min send bound, and refuses a share over the whole', () => {
    assert.deepEqual(loadConfig({}).largePages, { atOnce: 2, perCompany: 1, waitMs: 10_000, sendTimeoutMs: 120_000 });
    assert.throws(
      () => loadConfig({ WRS_LARGE_PAGE_SEND_TIMEOUT_MS: '0' }),
      (error: unknown) => error instanceof ConfigError && error.problems[0]!.startsWith('WRS_LARGE_PAGE_SEND_TIMEOUT_MS:'),
    );
    assert.throws(
      () => loadConfig({ WRS_LARGE_PAGES_AT_ONCE: '2', WRS_LARGE_PAGES_PER_COMPANY: '3' }),
      (error: unknown) => error instanceof ConfigError && error.problems.includes('WRS_LARGE_PAGES_PER_COMPANY: must not exceed WRS_LARGE_PAGES_AT_ONCE'),
    );
  });
});
