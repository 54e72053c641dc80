import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/lib/clock.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.js';
import { anEvent, EVENT_FIELDS, ingest, ingestOk, listEvents, listIds } from './event-fixtures.js';

const NOW = '2026-03-04T05:06:07.089Z';
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeEachDatabase('POST /admin/v1/companies/:company/events', (kind) => {
  let t: TestApp;
  let company = 0;
  /** A fresh company per test, so that counts are the test's own. */
  const fresh = () => `ingest-${++company}`;
  before(async () => {
    t = await createTestApp(kind, { clock: new ManualClock(NOW) });
  });
  after(() => t.close());

  const post = (target: string, payload: string, contentType = 'application/json') =>
    t.admin({ method: 'POST', url: `/admin/v1/companies/${target}/events`, headers: { 'content-type': contentType }, payload });

  const count = async (target: string) => (await listEvents(t, target, 'limit=10000')).json().count as number;

  function expectRefused(response: Awaited<ReturnType<typeof post>>, includes: string[], where?: { line?: number; index?: number }) {
    assert.equal(response.statusCode, 400, response.body);
    const body = response.json();
    assert.equal(body.code, 'invalid_body');
    for (const part of includes) assert.ok(body.message.includes(part), `${body.message} should mention ${part}`);
    assert.ok(body.message.includes('nothing was stored'), body.message);
    // An item at fault is listed as {index, field, message}: the array index, or the line number minus one.
    const index = where?.line !== undefined ? where.line - 1 : where?.index;
    if (index !== undefined) {
      assert.equal(body.error_count, 1, body.message);
      assert.equal(body.errors[0].index, index);
      for (const part of includes) assert.ok(body.errors[0].message.includes(part) || body.message.includes(part), part);
    }
  }

  describe('formats', () => {
    it('takes a JSON array', async () => {
      const target = fresh();
      const response = await ingest(t, target, [anEvent({ id: 'a1' }), anEvent({ id: 'a2' })], 'array');
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { ingested: 2 });
      assert.deepEqual(await listIds(t, target), ['a1', 'a2']);
    });

    it('takes NDJSON with blank lines, CRLF and no final newline', async () => {
      const target = fresh();
      const lines = [anEvent({ id: 'n1' }), anEvent({ id: 'n2' }), anEvent({ id: 'n3' })].map((event) => JSON.stringify(event));
      const response = await post(target, `\n${lines[0]}\r\n\n   \n${lines[1]}\n${lines[2]}`, 'application/x-ndjson');
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { ingested: 3 });
      assert.deepEqual(await listIds(t, target), ['n1', 'n2', 'n3']);
    });

    it('accepts an empty array and an empty NDJSON body', async () => {
      const target = fresh();
      assert.deepEqual((await post(target, ' [ ] ')).json(), { ingested: 0 });
      assert.deepEqual((await post(target, '\n\n', 'application/x-ndjson')).json(), { ingested: 0 });
      assert.equal(await count(target), 0);
    });

    it('refuses bodies that are not an array of events', async () => {
      const target = fresh();
      expectRefused(await post(target, '{"type":"x"}'), ['JSON array']);
      expectRefused(await post(target, '[{"type":"x"}'), ['ends early']);
      expectRefused(await post(target, '[{"type":"x"},]'), ['trailing comma'], { index: 1 });
      expectRefused(await post(target, '[{"type":"x"}] []'), ['after the end']);
      expectRefused(await post(target, '[{"type":"x"}, {"type": }]'), ['malformed JSON'], { index: 1 });
      expectRefused(await post(target, '[{"type":"x"}, 5]'), ['must be a JSON object'], { index: 1 });
      expectRefused(await post(target, '{"type":"x"}\n{"type":\n', 'application/x-ndjson'), ['line 2', 'malformed JSON'], { line: 2 });
      expectRefused(await post(target, '{"type":"x"}\n[]\n', 'application/x-ndjson'), ['line 2', 'must be a JSON object'], { line: 2 });
      const empty = await t.admin({ method: 'POST', url: `/admin/v1/companies/${target}/events`, headers: { 'content-type': 'application/json' } });
      assert.equal(empty.statusCode, 400);
      assert.equal(await count(target), 0);
    });

    it('answers 415 to other content types', async () => {
      const response = await post(fresh(), '{"type":"x"}', 'text/plain');
      assert.equal(response.statusCode, 415);
      assert.equal(response.json().code, 'unsupported_media_type');
    });

    it('is for the operator only', async () => {
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/admin/v1/companies/x/events',
        headers: { 'content-type': 'application/json' },
        payload: '[{"type":"x"}]',
      });
      assert.equal(anonymous.statusCode, 401);
      const user = await t.as('x', { method: 'POST', url: '/admin/v1/companies/x/events', payload: [{ type: 'x' }] });
      assert.equal(user.statusCode, 401);
      assert.equal(await count('x'), 0);
    });
  });

  describe('defaults and normalisation', () => {
    it('fills in id, timestamps, excluded and the nullable keys', async () => {
      const target = fresh();
      await ingestOk(t, target, [{ type: 'user_flow_session_started' }, { type: 'second' }]);
      const [first, second] = (await listEvents(t, target)).json().results;
      assert.match(first.id, UUID_V7);
      assert.match(second.id, UUID_V7);
      assert.notEqual(first.id, second.id);
      assert.ok(first.id < second.id, 'ids follow the order of the body');
      for (const event of [first, second]) {
        assert.equal(event.created_at, NOW);
        assert.equal(event.updated_at, NOW);
        assert.equal(event.excluded, false);
        assert.equal(event.company_id, target);
        assert.deepEqual(Object.keys(event), [...EVENT_FIELDS]);
        for (const field of EVENT_FIELDS) {
          if (!['id', 'company_id', 'created_at', 'updated_at', 'excluded', 'type'].includes(field)) assert.equal(event[field], null, field);
        }
      }
      assert.equal(first.type, 'user_flow_session_started');
    });

    it('keeps given values, and normalises timestamps to UTC with milliseconds', async () => {
      const target = fresh();
      const given = anEvent({
        id: 'kept',
        company_id: target,
        created_at: '2026-01-01T01:00:00+01:00',
        updated_at: '2026-01-02',
        excluded: true,
        like_value: -0.25,
        flow_session: 9_007_199_254_740_991,
        text: 'ünïcödé "quoted"\n',
        version_object: [1, { a: null }],
      });
      await ingestOk(t, target, [given]);
      const [event] = (await listEvents(t, target)).json().results;
      assert.equal(event.created_at, '2026-01-01T00:00:00.000Z');
      assert.equal(event.updated_at, '2026-01-02T00:00:00.000Z');
      assert.equal(event.excluded, true);
      assert.equal(event.like_value, -0.25);
      assert.equal(event.flow_session, 9_007_199_254_740_991);
      assert.equal(event.text, 'ünïcödé "quoted"\n');
      assert.deepEqual(event.version_object, [1, { a: null }]);
      for (const field of ['connection_id', 'connection_key', 'flow_id', 'flow_key', 'step_key', 'user_id', 'version_id', 'version_key']) {
        assert.equal(event[field], given[field], field);
      }
    });

    // PostgreSQL copies a batch in COPY's text format, where these characters and sequences mean something.
    it('keeps text holding tabs, line breaks, backslashes, \\N and \\. as it was, each found again by its exact filter', async () => {
      const target = fresh();
      const awkward = (field: string) => `${field}\t\\N\r\n\\.\n\\\\t "\\" \u2028 é`;
      const filtered = ['connection_key', 'flow_key', 'step_key', 'selected_decision', 'user_id', 'version_key'];
      const fields = [...filtered, 'connection_id', 'flow_id', 'text', 'version_id'];
      const given = anEvent({ id: 'a\\N\tb', ...Object.fromEntries(fields.map((field) => [field, awkward(field)])), version_object: '\\N' });
      await ingestOk(t, target, [given, anEvent({ id: '\\N', flow_key: null })]);
      for (const field of filtered) {
        const response = await listEvents(t, target, `${field}=${encodeURIComponent(awkward(field))}`);
        assert.equal(response.statusCode, 200, response.body);
        assert.deepEqual(
          response.json().results.map((event: { id: string }) => event.id),
          ['a\\N\tb'],
          field,
        );
      }
      const events = (await listEvents(t, target, 'order_by=id')).json().results;
      assert.deepEqual(
        events.map((event: { id: string }) => event.id),
        ['\\N', 'a\\N\tb'],
      );
      for (const field of fields) assert.equal(events[1][field], awkward(field), field);
      assert.equal(events[1].version_object, '\\N');
      assert.equal(events[0].flow_key, null);
    });
  });

  describe('validation: a bad event refuses the whole request', () => {
    const bad: [string, Record<string, unknown>, string][] = [
      ['missing type', { flow_key: 'x' }, "missing field 'type'"],
      ['empty type', { type: '' }, "'type'"],
      ['unknown field', { type: 'x', flowKey: 'y' }, "unknown field 'flowKey'"],
      ['flow_session as a string', { type: 'x', flow_session: '3' }, "'flow_session' must be an integer"],
      ['flow_session with a fraction', { type: 'x', flow_session: 1.5 }, "'flow_session'"],
      ['flow_session beyond 2^53', { type: 'x', flow_session: 2 ** 60 }, "'flow_session'"],
      ['like_value as text', { type: 'x', like_value: 'x' }, "'like_value' must be a number"],
      ['excluded as text', { type: 'x', excluded: 'yes' }, "'excluded'"],
      ['excluded null', { type: 'x', excluded: null }, "'excluded'"],
      ['id empty', { type: 'x', id: '' }, "'id'"],
      ['id a number', { type: 'x', id: 7 }, "'id'"],
      ['created_at not ISO', { type: 'x', created_at: 'yesterday' }, "'created_at' must be an ISO 8601"],
      ['created_at without zone', { type: 'x', created_at: '2026-01-01T00:00:00' }, "'created_at'"],
      ['created_at impossible', { type: 'x', created_at: '2026-02-30T00:00:00Z' }, "'created_at'"],
      ['created_at null', { type: 'x', created_at: null }, "'created_at'"],
      ['text a number', { type: 'x', text: 5 }, "'text'"],
      ['key too long', { type: 'x', flow_key: 'k'.repeat(257) }, "'flow_key'"],
      ['NUL in a string', { type: 'x', step_key: 'a\u0000b' }, 'NUL'],
      ['another company', { type: 'x', company_id: 'someone-else' }, "company_id 'someone-else'"],
    ];
    for (const [name, event, message] of bad) {
      it(`${name}: 400 naming the line of NDJSON`, async () => {
        const target = fresh();
        const body = [anEvent(), anEvent(), event].map((e) => JSON.stringify(e)).join('\n');
        expectRefused(await post(target, `${body}\n`, 'application/x-ndjson'), ['line 3', message], { line: 3 });
        assert.equal(await count(target), 0);
      });
    }

    it('says a number too large for a double is one (1e400 parses as Infinity, which JSON shows as null)', async () => {
      const target = fresh();
      for (const field of ['like_value', 'flow_session']) {
        const body = `${JSON.stringify(anEvent())}\n{"type":"x","${field}":-1e400}\n`;
        expectRefused(await post(target, body, 'application/x-ndjson'), ['line 2', `'${field}' must be`, 'got a number too large'], { line: 2 });
      }
      assert.equal(await count(target), 0);
    });

    it('names the index of a bad event in an array', async () => {
      const target = fresh();
      const response = await ingest(t, target, [anEvent(), { type: 'x', flow_session: 'one' }, anEvent()]);
      expectRefused(response, ["[1].flow_session field 'flow_session'"], { index: 1 });
      assert.equal(response.json().errors[0].field, 'flow_session');
      assert.equal(await count(target), 0);
    });

    it('stores nothing when the bad event comes after thousands already written', async () => {
      const target = fresh();
      const events = Array.from({ length: 21_000 }, (_, i) => anEvent({ id: `bulk-${i}`, flow_key: `flow-${i % 50}` }));
      const body = `${events.map((event) => JSON.stringify(event)).join('\n')}\n{"type":"x","excluded":"no"}\n{"type":"ok"}\n{"typo":1}\n`;
      assert.ok(body.length > 1_048_576 * 2, 'the body is over the 1 MiB limit of other routes');
      const refused = await post(target, body, 'application/x-ndjson');
      assert.equal(refused.statusCode, 400, refused.body);
      // The transaction is rolled back at the first bad line, and the rest is still read and checked.
      assert.deepEqual(
        refused.json().errors.map((error: { index: number; field: string }) => [error.index, error.field]),
        [
          [21_000, 'excluded'],
          [21_002, 'type'],
        ],
      );
      assert.match(refused.json().message, /line 21001: .*line 21003: /);
      assert.equal(await count(target), 0);
      assert.deepEqual(await listIds(t, target, 'flow_key__contains=flow'), []);

      const good = await post(target, events.map((event) => JSON.stringify(event)).join('\n'), 'application/x-ndjson');
      assert.deepEqual(good.json(), { ingested: 21_000 });
      assert.equal((await listEvents(t, target, 'limit=10000&page=3')).json().count, 1000);
    });
  });

  describe('every bad event at once', () => {
    it('lists each bad line of NDJSON and each bad index of an array, storing nothing', async () => {
      const target = fresh();
      const lines = [anEvent(), { type: 7 }, anEvent(), anEvent(), { type: 'x', when: 1 }].map((event) => JSON.stringify(event));
      const ndjson = await post(target, `${lines.join('\n')}\n{broken\n`, 'application/x-ndjson');
      assert.equal(ndjson.statusCode, 400, ndjson.body);
      const body = ndjson.json();
      assert.equal(body.code, 'invalid_body');
      assert.equal(body.error_count, 3);
      assert.deepEqual(
        body.errors.map((error: { index: number; field: string | null; message: string }) => [error.index, error.field, error.message.split(':')[0]]),
        [
          [1, 'type', 'line 2'],
          [4, 'when', 'line 5'],
          [5, null, 'line 6'],
        ],
      );
      assert.match(body.message, /nothing was stored: 3 problem\(s\): \[1\]\.type line 2: /);

      const array = await ingest(t, target, [{ type: 7 }, anEvent(), anEvent(), { type: 'x', excluded: 'no' }]);
      assert.deepEqual(
        array.json().errors.map((error: { index: number; field: string }) => [error.index, error.field]),
        [
          [0, 'type'],
          [3, 'excluded'],
        ],
      );
      assert.equal(await count(target), 0);
    });

    it('lists at most 100 bad lines and counts the rest', async () => {
      const target = fresh();
      const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify(i % 2 === 0 ? anEvent() : { type: 'x', bad: i }));
      const response = await post(target, lines.join('\n'), 'application/x-ndjson');
      assert.equal(response.statusCode, 400);
      const body = response.json();
      assert.equal(body.error_count, 125);
      assert.equal(body.errors.length, 100);
      assert.equal(body.errors[99].index, 199);
      assert.match(body.message, /125 problem\(s\): .* \(and 25 more\)$/);
      assert.equal(await count(target), 0);
    });

    it('refuses bytes that are not UTF-8, naming the line and the byte, instead of storing U+FFFD', async () => {
      const target = fresh();
      const good = Buffer.from(`${JSON.stringify(anEvent())}\n`);
      const bad = Buffer.concat([Buffer.from('{"type":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]); // Latin-1 é
      const ndjson = await post(target, Buffer.concat([good, bad, good]) as unknown as string, 'application/x-ndjson');
      assert.equal(ndjson.statusCode, 400, ndjson.body);
      assert.deepEqual(ndjson.json().errors, [{ index: 1, field: null, message: `line 2: not valid UTF-8 (at byte ${good.length + 12} of the body)` }]);
      const array = await post(target, Buffer.concat([Buffer.from('['), bad.subarray(0, -1), Buffer.from(']')]) as unknown as string);
      assert.equal(array.statusCode, 400, array.body);
      assert.deepEqual(array.json().errors, [{ index: 0, field: null, message: 'not valid UTF-8 (at byte 13 of the body)' }]);
      assert.equal(await count(target), 0);
    });
  });

  describe('ids already stored', () => {
    it('replaces an event whose id the company already has, and the last of an id in a request wins', async () => {
      const target = fresh();
      await ingestOk(t, target, [anEvent({ id: 'same', type: 'first', flow_key: 'one' }), anEvent({ id: 'other' })]);
      await ingestOk(t, target, [
        anEvent({ id: 'same', type: 'second', flow_key: 'two' }),
        anEvent({ id: 'same', type: 'third', flow_key: 'three', version_object: { v: 3 } }),
      ]);
      const events = (await listEvents(t, target, 'order_by=id')).json().results;
      assert.deepEqual(
        events.map((event: { id: string; type: string }) => [event.id, event.type]),
        [
          ['other', 'user_flow_step_completed'],
          ['same', 'third'],
        ],
      );
      assert.deepEqual(events[1].version_object, { v: 3 });
      assert.deepEqual(await listIds(t, target, 'flow_key=three'), ['same']);
      assert.deepEqual(await listIds(t, target, 'flow_key=one'), []);
    });
  });
});

describeEachDatabase('ingest over a real connection', (kind) => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp(kind);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  it('stores nothing when the client disconnects in the middle of the body', async () => {
    const { request } = await import('node:http');
    const lines = Array.from({ length: 25_000 }, (_, i) => JSON.stringify(anEvent({ id: `cut-${i}` }))).join('\n');
    await new Promise<void>((resolve) => {
      const req = request(`${base}/admin/v1/companies/cut-off/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      });
      req.on('error', () => resolve());
      req.write(lines, () => setTimeout(() => req.destroy(), 200));
    });
    // The server notices, rolls back, and keeps serving: for a second, nothing may show up.
    for (let attempt = 0; attempt < 50 && (await listEvents(t, 'cut-off')).json().count === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal((await listEvents(t, 'cut-off', 'limit=10000')).json().count, 0);
    const after = await fetch(`${base}/admin/v1/companies/cut-off/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body: lines.split('\n').slice(0, 3).join('\n'),
    });
    assert.deepEqual(await after.json(), { ingested: 3 });
  });

  it('answers a bad line of a large body at once, over the network too', async () => {
    const body = `{"type":"ok"}\n{"type":7}\n${Array.from({ length: 30_000 }, () => JSON.stringify(anEvent())).join('\n')}`;
    const response = await fetch(`${base}/admin/v1/companies/early/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      body,
    }).catch((error: unknown) => error);
    // Either the client reads the 400, or the server closed the connection while the client was still sending.
    if (response instanceof Response) {
      assert.equal(response.status, 400);
      const body = (await response.json()) as { errors: { index: number; message: string }[]; error_count: number };
      assert.deepEqual([body.error_count, body.errors[0]!.index], [1, 1]);
      assert.match(body.errors[0]!.message, /^line 2: /);
    }
    assert.equal((await listEvents(t, 'early')).json().count, 0);
  });
});
