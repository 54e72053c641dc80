import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

// Large pages are built and sent a few at a time, one at a time per company; a HEAD request or
// a client that goes away (while waiting, while its page is built, mid-answer) must give its
// place back, or the company's later large pages would be refused.
describeEachDatabase('large event pages', (kind) => {
  const COMPANY = 'large-pages-co';
  const EVENTS = 1500;
  let t: TestApp;
  let base: string;
  let token: string;
  before(async () => {
    t = await createTestApp(kind, { env: { WRS_LARGE_PAGE_WAIT_MS: '3000' } });
    const lines = Array.from({ length: EVENTS }, (_, i) =>
      JSON.stringify({ type: 'user_flow_step_viewed', flow_key: `flow-${i % 7}`, text: 'x'.repeat(200) }),
    ).join('\n');
    const ingest = await t.admin({
      method: 'POST',
      url: `/admin/v1/companies/${COMPANY}/events`,
      headers: { 'content-type': 'application/x-ndjson' },
      payload: lines,
    });
    assert.equal(ingest.statusCode, 200, ingest.body);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    token = await t.userToken(COMPANY);
  });
  after(() => t.close());

  const abortAfterFirstChunk = () =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${base}/v1/events?limit=5000`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
      req.end();
    });

  const leaveAfter = (ms: number) =>
    new Promise<void>((resolve) => {
      const socket = connect((t.app.server.address() as AddressInfo).port, '127.0.0.1', () => {
        socket.write(`GET /v1/events?limit=5000 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, ms);
      });
      socket.on('error', () => undefined);
    });

  it('gives the place back when clients leave while waiting for it or while their page is built', async () => {
    await Promise.all([0, 1, 2, 5, 10, 20, 40, 80, 160].map(leaveAfter));
    const page = await fetch(`${base}/v1/events?limit=5000`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(page.status, 200, await page.clone().text());
    assert.equal(((await page.json()) as { count: number }).count, EVENTS);
  });

  it('still answers after HEAD requests and clients that went away mid-answer', async () => {
    for (let i = 0; i < 3; i++) {
      const head = await fetch(`${base}/v1/events?limit=5000`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
      assert.equal(head.status, 200);
    }
    for (let i = 0; i < 3; i++) await abortAfterFirstChunk();
    const pages = await Promise.all(
      Array.from({ length: 4 }, () => fetch(`${base}/v1/events?limit=5000`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())),
    );
    for (const page of pages) assert.equal((page as { count: number }).count, EVENTS);
  });
});
