import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WEB_BUILD_DIR } from '../../src/http/plugins/web-pages.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, VALID_LOAN } from '../records/fixtures.js';

describe('error codes of static files, prototype keys and clients that leave', () => {
  let t: TestApp;
  const logLines: Array<Record<string, unknown>> = [];
  before(async () => {
    t = await createTestApp('sqlite', {
      app: { logger: { level: 'info', stream: { write: (line: string) => logLines.push(JSON.parse(line) as Record<string, unknown>) } } },
    });
    await defineType(t, 'acme', 'loan');
  });
  after(() => t.close());

  describe('static files', () => {
    it('answers 404 for a file that is not there, even under an empty segment, not 405 naming GET', async () => {
      for (const url of ['/assets//x', '/assets/no-such-file.js', '/docs/static//x']) {
        const response = await t.app.inject({ method: 'GET', url });
        const body = expectStatus(response, 404, 'not_found');
        assert.equal(response.headers.allow, undefined, url);
        assert.equal(body.message, `no route GET ${url}`);
        assert.equal((await t.app.inject({ method: 'HEAD', url })).statusCode, 404, `HEAD ${url}`);
      }
    });

    it('answers a path that climbs out of the folder, names a dotfile or does not decode with 404 not_found', async () => {
      const urls = [
        '/assets/..%2f..%2fpackage.json',
        '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
        '/assets/..%5c..%5cpackage.json',
        '/assets/%2e%2e/%2e%2e/package.json',
        '/assets/../../package.json',
        '/app/%2e%2e/%2e%2e/package.json',
        '/docs/static/..%2f..%2f..%2fpackage.json',
        '/assets/.env',
        '/assets/%00.js',
      ];
      for (const url of urls) {
        const response = await t.app.inject({ method: 'GET', url });
        const body = expectStatus(response, 404, 'not_found');
        assert.doesNotMatch(body.message, /forbidden/i, url);
      }
    });

    it('still serves the files that are there, and still answers 405 for a method the path lacks', async () => {
      const asset = readdirSync(`${WEB_BUILD_DIR}assets`).find((name) => name.endsWith('.js'));
      assert.ok(asset, 'the web pages are built (npm run build)');
      assert.equal((await t.app.inject({ method: 'GET', url: `/assets/${asset}` })).statusCode, 200);
      const refused = await t.app.inject({ method: 'POST', url: '/assets/x' });
      expectStatus(refused, 405, 'method_not_allowed');
      assert.equal(refused.headers.allow, 'GET, HEAD');
    });
  });

  describe('JSON keys that could change a prototype', () => {
    const post = (payload: string) => t.as('acme', { method: 'POST', url: '/v1/records/loan', payload, headers: { 'content-type': 'application/json' } });

    it('answers __proto__ with a 400 naming the key and where it is', async () => {
      const top = expectStatus(await post('{"f_borrower": "Ada", "__proto__": {"admin": true}}'), 400, 'invalid_body');
      assert.match(top.message, /^the body has the key '__proto__' \(at '__proto__'\), which is refused/);
      const nested = expectStatus(await post('{"f_borrower": "Ada", "f_notes": [1, {"a": {"__proto__": {}}}]}'), 400, 'invalid_body');
      assert.match(nested.message, /the key '__proto__' \(at 'f_notes\[1\]\.a\.__proto__'\)/);
    });

    it('answers constructor.prototype likewise', async () => {
      const body = expectStatus(await post('{"constructor": {"prototype": {"admin": true}}}'), 400, 'invalid_body');
      assert.match(body.message, /^the body has the key 'constructor\.prototype' \(at 'constructor\.prototype'\)/);
    });

    it('keeps the malformed-JSON answer for text that is not JSON, and takes a key named constructor alone', async () => {
      const malformed = expectStatus(await post('{"f_borrower": '), 400, 'invalid_body');
      assert.match(malformed.message, /^malformed JSON body/);
      const constructorValue = await post(JSON.stringify({ ...VALID_LOAN, constructor: 'x' }));
      assert.notEqual(constructorValue.statusCode, 500);
      assert.doesNotMatch(constructorValue.body, /prototype/);
    });
  });

  describe('a client that closes its connection mid-request', () => {
    it('is logged at info without a stack, not as an error', async () => {
      const base = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 }));
      const token = await t.userToken('acme');
      logLines.length = 0;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(base.port), base.hostname, () => {
          socket.write(
            `POST /v1/records/loan HTTP/1.1\r\nhost: ${base.host}\r\nauthorization: Bearer ${token}\r\n` +
              'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"f_borrower": ',
          );
          setTimeout(() => socket.destroy(), 200);
        });
        socket.on('error', reject);
        socket.on('close', () => resolve());
      });
      const since = Date.now();
      while (!logLines.some((line) => /closed the connection/.test(String(line.msg)))) {
        assert.ok(Date.now() - since < 5000, `no log line of the disconnect: ${JSON.stringify(logLines)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const line = logLines.find((entry) => /closed the connection/.test(String(entry.msg)))!;
      assert.equal(line.level, 30, JSON.stringify(line));
      assert.equal(line.err, undefined);
      assert.doesNotMatch(JSON.stringify(line), /stack|\n {4}at /);
      assert.deepEqual(
        logLines.filter((entry) => Number(entry.level) >= 40),
        [],
      );
    });
  });
});
