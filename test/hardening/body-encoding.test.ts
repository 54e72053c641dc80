import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, VALID_LOAN } from '../records/fixtures.js';
import { anEvent, listEvents } from '../events/event-fixtures.js';

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
/** A Latin-1 "é" inside an otherwise well-formed JSON string: not UTF-8. */
const latin1 = (before: string, after: string) => Buffer.concat([Buffer.from(before), Buffer.from([0xe9]), Buffer.from(after)]);

describeEachDatabase('request bodies: UTF-8 only, identity only, the media types a route reads', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
  });
  after(() => t.close());

  const createLoan = (payload: string | Buffer, headers: Record<string, string> = {}) =>
    t.as('acme', { method: 'POST', url: '/v1/records/loan', headers: { 'content-type': 'application/json', ...headers }, payload });
  const recordCount = async () => expectStatus(await t.as('acme', { method: 'GET', url: '/v1/records?limit=100' }), 200).count as number;
  const json = JSON.stringify(VALID_LOAN);

  function expect415(response: LightMyRequestResponse, accepted: string[], includes: string): Record<string, unknown> {
    const body = expectStatus(response, 415, 'unsupported_media_type');
    assert.deepEqual(body.accepted, accepted);
    assert.ok(body.message.includes(includes), body.message);
    assert.ok(body.message.includes(accepted.join(', ')), `${body.message} names what the route reads`);
    return body;
  }

  describe('bytes that are not UTF-8', () => {
    it('are a 400 naming the byte, never stored as U+FFFD (record create)', async () => {
      const before = await recordCount();
      const payload = latin1('{"f_amount": 5, "f_borrower": "Ren', '"}');
      const body = expectStatus(await createLoan(payload), 400, 'invalid_body');
      assert.equal(body.message, `the body is not valid UTF-8 (at byte ${payload.indexOf(0xe9)}); nothing was stored`);
      assert.equal(await recordCount(), before);
      // The same text in UTF-8 is stored as sent.
      const created = expectStatus(await createLoan(Buffer.from('{"f_amount": 5, "f_borrower": "René"}')), 201);
      assert.equal(created.fields.Borrower, 'René');
    });

    it('are a 400 on the JSON routes of the operator too: record types, tokens, templates, checks', async () => {
      const cases: InjectOptions[] = [
        { method: 'PUT', url: '/admin/v1/companies/acme/record-types/other' },
        { method: 'POST', url: '/admin/v1/tokens' },
        { method: 'PUT', url: '/admin/v1/companies/acme/templates/tpl' },
        { method: 'POST', url: '/admin/v1/companies/acme/checks' },
      ];
      for (const request of cases) {
        const response = await t.admin({ ...request, headers: { 'content-type': 'application/json' }, payload: latin1('{"name": "caf', '"}') });
        assert.match(expectStatus(response, 400, 'invalid_body').message, /not valid UTF-8 \(at byte 13\)/, String(request.url));
      }
      expectStatus(await t.admin({ method: 'GET', url: '/admin/v1/companies/acme/record-types/other' }), 404);
    });
  });

  describe('Content-Encoding and charset', () => {
    it('refuses a compressed body with 415, naming identity, and stores nothing', async () => {
      const before = await recordCount();
      for (const encoding of ['gzip', 'br', 'deflate', 'x-custom', 'identity, gzip']) {
        const response = await createLoan(gzipSync(json), { 'content-encoding': encoding });
        const body = expect415(response, ['application/json'], `Content-Encoding '${encoding}' is not supported`);
        assert.equal(response.headers['accept-encoding'], 'identity', String(body.message));
        assert.equal(response.headers['accept-post'], 'application/json');
      }
      assert.equal(await recordCount(), before);
      expectStatus(await createLoan(json, { 'content-encoding': 'identity' }), 201);
      expectStatus(await createLoan(json, { 'content-encoding': 'IDENTITY' }), 201);
    });

    it('refuses a charset other than UTF-8 with 415, and takes UTF-8 however it is written', async () => {
      for (const contentType of ['application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json;charset="ISO-8859-1"']) {
        expect415(await createLoan(json, { 'content-type': contentType }), ['application/json'], 'charset');
      }
      for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf8"', 'APPLICATION/JSON']) {
        expectStatus(await createLoan(json, { 'content-type': contentType }), 201);
      }
    });

    it('applies to the streamed ingest and the import as well', async () => {
      const ingest = await t.admin({
        method: 'POST',
        url: '/admin/v1/companies/acme/events',
        headers: { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' },
        payload: gzipSync(JSON.stringify(anEvent())),
      });
      expect415(ingest, ['application/json', ...NDJSON_TYPES], 'Content-Encoding');
      const latin = await t.admin({
        method: 'POST',
        url: '/admin/v1/companies/acme/events',
        headers: { 'content-type': 'application/x-ndjson; charset=iso-8859-1' },
        payload: JSON.stringify(anEvent()),
      });
      expect415(latin, ['application/json', ...NDJSON_TYPES], 'charset');
      assert.equal((await listEvents(t, 'acme')).json().count, 0);
      const imported = await t.admin({
        method: 'POST',
        url: '/admin/v1/companies/acme/records',
        headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
        payload: '[]',
      });
      expect415(imported, ['application/json', ...NDJSON_TYPES], 'Content-Encoding');
    });

    it('is a rule of the routes whose method has a body: a DELETE is refused, a GET answered (its body is never read)', async () => {
      const created = expectStatus(await createLoan(json), 201);
      const gzipped = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
      const url = `/v1/records/${created.id as string}`;
      expect415(await t.as('acme', { method: 'DELETE', url, headers: gzipped, payload: gzipSync('{}') }), ['application/json'], 'Content-Encoding');
      assert.equal(expectStatus(await t.as('acme', { method: 'GET', url, headers: gzipped, payload: gzipSync('{}') }), 200).id, created.id);
    });
  });

  describe('media types', () => {
    it('answers JSON sent as text/plain with 415 naming application/json, not "must be a JSON object"', async () => {
      const response = await createLoan(json, { 'content-type': 'text/plain' });
      expect415(response, ['application/json'], "unsupported content type 'text/plain'");
      assert.equal(response.headers['accept-post'], 'application/json');
      const patch = await t.as('acme', { method: 'PATCH', url: '/v1/records/whatever', headers: { 'content-type': 'text/plain' }, payload: '{}' });
      expect415(patch, ['application/json'], 'text/plain');
      assert.equal(patch.headers['accept-patch'], 'application/json');
      const put = await t.admin({ method: 'PUT', url: '/admin/v1/companies/acme/record-types/x', headers: { 'content-type': 'text/plain' }, payload: '{}' });
      expect415(put, ['application/json'], 'text/plain');
    });

    it('answers a body without a Content-Type, or with a form type, with 415', async () => {
      const bare = await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: Buffer.from(json) });
      expect415(bare, ['application/json'], 'no Content-Type');
      expect415(await createLoan('a=1', { 'content-type': 'application/x-www-form-urlencoded' }), ['application/json'], 'x-www-form-urlencoded');
    });

    it('names NDJSON too on the ingest and import routes', async () => {
      for (const url of ['/admin/v1/companies/acme/events', '/admin/v1/companies/acme/records']) {
        const response = await t.admin({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: '[]' });
        expect415(response, ['application/json', ...NDJSON_TYPES], 'text/plain');
        assert.equal(response.headers['accept-post'], ['application/json', ...NDJSON_TYPES].join(', '));
      }
    });
  });
});

describeEachDatabase('request bodies over a real connection', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan');
  });
  after(() => t.close());

  it('split over the network still decode when they are UTF-8, and still fail when not', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const token = await t.userToken('acme');
    const send = (chunks: Buffer[]) =>
      fetch(`${base}/v1/records/loan`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: new ReadableStream({
          async start(controller) {
            for (const chunk of chunks) {
              controller.enqueue(chunk);
              await new Promise((resolve) => setTimeout(resolve, 5));
            }
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const good = Buffer.from('{"f_amount": 1, "f_borrower": "€uro"}');
    const cut = good.indexOf(0xe2) + 1; // inside the three bytes of "€"
    assert.equal((await send([good.subarray(0, cut), good.subarray(cut)])).status, 201);
    const bad = latin1('{"f_amount": 1, "f_borrower": "', '"}');
    assert.equal((await send([bad.subarray(0, 10), bad.subarray(10)])).status, 400);
  });
});
