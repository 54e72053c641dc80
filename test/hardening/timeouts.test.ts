import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { openRaw, sleep } from './helpers/server-process.js';

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return (t.app.server.address() as { port: number }).port;
}

function tokenRequestHead(bodyLength: number, connection = 'keep-alive'): string {
  return (
    `POST /admin/v1/tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: ${connection}\r\n` +
    `Authorization: Bearer ${TEST_ADMIN_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${bodyLength}\r\n\r\n`
  );
}

// Each case waits for the server to close the connection; if a timeout did not work the
// connection would stay open and the test would hit its own time limit and fail.
describe('request, header and keep-alive timeouts', () => {
  let t: TestApp;
  let port: number;
  before(
    async () => {
      t = await createTestApp('sqlite', {
        env: {
          WRS_HEADERS_TIMEOUT_MS: '400',
          WRS_REQUEST_TIMEOUT_MS: '1200',
          WRS_KEEP_ALIVE_TIMEOUT_MS: '1000',
          WRS_CONNECTION_TIMEOUT_MS: '0',
        },
      });
      port = await listen(t);
    },
    { timeout: 30_000 },
  );
  after(() => t.close(), { timeout: 30_000 });

  it('answers 408 and closes when the headers do not arrive in time', { timeout: 30_000 }, async () => {
    const connection = await openRaw(port);
    connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const received = await connection.closed;
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.deepEqual(bodyOf(received), { message: 'the request did not arrive in time', code: 'request_timeout' });
  });

  it('answers malformed HTTP and oversized headers with the error body', { timeout: 30_000 }, async () => {
    const malformed = await openRaw(port);
    malformed.write('NOT HTTP AT ALL\r\n\r\n');
    const garbage = await malformed.closed;
    assert.match(garbage, /^HTTP\/1\.1 400 /);
    assert.equal(bodyOf(garbage).code, 'bad_request');
    const oversized = await openRaw(port);
    oversized.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const tooLarge = await oversized.closed;
    assert.match(tooLarge, /^HTTP\/1\.1 431 /);
    assert.equal(bodyOf(tooLarge).code, 'headers_too_large');
  });

  it('closes a request whose body does not arrive in time', { timeout: 30_000 }, async () => {
    const connection = await openRaw(port);
    connection.write(`${tokenRequestHead(100)}{"company_id":`);
    const received = await connection.closed;
    assert.match(received, /^HTTP\/1\.1 408 /);
    assert.equal(bodyOf(received).code, 'request_timeout');
  });

  it('closes an idle keep-alive connection, and says so', { timeout: 30_000 }, async () => {
    const connection = await openRaw(port);
    connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const received = await connection.closed;
    assert.match(received, /^HTTP\/1\.1 200 /);
    assert.match(received, /\r\nKeep-Alive: timeout=1\r\n/i);
  });
});

describe('connection inactivity timeout', () => {
  let t: TestApp;
  let port: number;
  before(
    async () => {
      t = await createTestApp('sqlite', {
        env: {
          WRS_CONNECTION_TIMEOUT_MS: '500',
          WRS_HEADERS_TIMEOUT_MS: '60000',
          WRS_REQUEST_TIMEOUT_MS: '0',
          WRS_KEEP_ALIVE_TIMEOUT_MS: '60000',
        },
      });
      port = await listen(t);
    },
    { timeout: 30_000 },
  );
  after(() => t.close(), { timeout: 30_000 });

  it('closes a connection silent both ways', { timeout: 30_000 }, async () => {
    const connection = await openRaw(port);
    assert.equal(await connection.closed, '');
  });

  it('keeps a slow but steady upload going past the inactivity timeout (a long ingest is not cut)', { timeout: 30_000 }, async () => {
    const body = JSON.stringify({ company_id: 'acme', user_id: 'u1', expires_in: 60 });
    const connection = await openRaw(port);
    connection.write(tokenRequestHead(Buffer.byteLength(body), 'close'));
    const chunks = body.match(/.{1,4}/g)!;
    for (const chunk of chunks.slice(0, 10)) {
      connection.write(chunk);
      await sleep(150);
    }
    connection.write(chunks.slice(10).join(''));
    const received = await connection.closed;
    assert.match(received, /^HTTP\/1\.1 201 /);
  });
});
