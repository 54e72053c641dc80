import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

describeEachDatabase('Idempotency-Key as a Structured Field string, and the replayed ETag', (kind) => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(kind);
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
  });
  after(() => t.close());

  const withKey = (key: string, options: InjectOptions): InjectOptions => ({
    ...options,
    headers: { ...options.headers, 'idempotency-key': key },
  });
  const create = (key: string, body: object = VALID_LOAN) => t.as('acme', withKey(key, { method: 'POST', url: '/v1/records/loan', payload: body }));
  const recordCount = async () => {
    const row = await t.ctx.database.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', 'acme')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  describe('the ETag of POST /v1/records/{typeId}', () => {
    it('is replayed with the answer: the same tag as the first answer and as a GET of the record', async () => {
      const first = await create('etag-replay-1');
      const record = expectStatus(first, 201);
      const etag = first.headers.etag as string;
      assert.ok(etag, 'the first answer has an ETag');
      const retry = await create('etag-replay-1');
      assert.equal(retry.statusCode, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.headers.etag, etag);
      assert.equal(retry.body, first.body);
      assert.equal((await t.as('acme', { method: 'GET', url: `/v1/records/${record.id}` })).headers.etag, etag);
    });

    it('stays the tag of the answer kept, even once the record has changed', async () => {
      const first = await create('etag-replay-2');
      const record = expectStatus(first, 201);
      expectStatus(await t.as('acme', { method: 'PATCH', url: `/v1/records/${record.id}`, payload: { status: 'done' } }), 200);
      const retry = await create('etag-replay-2');
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.headers.etag, first.headers.etag, 'the replay is the first answer, headers and body');
      assert.equal(retry.body, first.body);
    });
  });

  describe('the quoted form', () => {
    it('names the same key as the bare form, whichever is sent first', async () => {
      const before = await recordCount();
      const bare = await create('sf-key-1');
      expectStatus(bare, 201);
      const quoted = await create('"sf-key-1"');
      assert.equal(quoted.statusCode, 201);
      assert.equal(quoted.headers['idempotent-replayed'], 'true');
      assert.equal(quoted.body, bare.body);

      const quotedFirst = await create('"sf-key-2"');
      expectStatus(quotedFirst, 201);
      const bareRetry = await create('sf-key-2');
      assert.equal(bareRetry.headers['idempotent-replayed'], 'true');
      assert.equal(bareRetry.body, quotedFirst.body);
      assert.equal(await recordCount(), before + 2);
    });

    it('unescapes \\" and \\\\ inside the quotes', async () => {
      const first = await create('"a\\"b\\\\c"');
      expectStatus(first, 201);
      const bare = await create('a"b\\c');
      assert.equal(bare.headers['idempotent-replayed'], 'true');
      assert.equal(bare.body, first.body);
    });

    it('is the same key with another body: 422 idempotency_key_reused naming the key unquoted', async () => {
      expectStatus(await create('sf-key-3'), 201);
      const before = await recordCount();
      const reused = expectStatus(await create('"sf-key-3"', { ...VALID_LOAN, f_amount: 3 }), 422, 'idempotency_key_reused');
      assert.match(reused.message, /Idempotency-Key 'sf-key-3' was used with another request/);
      assert.equal(await recordCount(), before);
    });

    it('takes a key of 255 characters inside the quotes', async () => {
      const key = 'k'.repeat(255);
      expectStatus(await create(`"${key}"`), 201);
      assert.equal((await create(key)).headers['idempotent-replayed'], 'true');
    });

    it('works on the other routes that take a key (record tokens)', async () => {
      const record = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201);
      const mint = (key: string) => t.as('acme', withKey(key, { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: { expires_in: 600 } }));
      const first = expectStatus(await mint('"sf-mint-1"'), 201);
      const retry = await mint('sf-mint-1');
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.json().token, first.token);
    });

    it('refuses a malformed quoted form with 400 invalid_header saying what is wrong, and runs nothing', async () => {
      const before = await recordCount();
      const cases: Array<[string, RegExp]> = [
        ['"unterminated', /is not a Structured Field string: the closing quote is missing/],
        ['"', /the closing quote is missing/],
        ['"ends with a backslash\\"', /the closing quote is missing/],
        ['"bad\\escape"', /a backslash may only escape " or \\ \(at character 5\)/],
        ['"abc"def', /nothing may follow its closing quote \(at character 5\)/],
        ['"abc";param=1', /nothing may follow its closing quote/],
        ['"caf\u00e9"', /it holds U\+00E9/],
        ['"tab\tkey"', /it holds U\+0009/],
        ['""', /Idempotency-Key must be 1 to 255 visible ASCII characters .* inside the quotes; got an empty value/],
        ['"has space"', /inside the quotes; got the character U\+0020/],
        [`"${'k'.repeat(256)}"`, /inside the quotes; got 256 characters/],
      ];
      for (const [key, message] of cases) {
        const refused = expectStatus(await create(key), 400, 'invalid_header');
        assert.match(refused.message, message, key);
        assert.equal(refused.invalid_header, 'Idempotency-Key', key);
      }
      assert.equal(await recordCount(), before);
    });

    it('leaves a bare key with a quote that does not start it as it is', async () => {
      const first = expectStatus(await create('ab"c'), 201);
      const retry = await create('ab"c');
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.json().id, first.id);
    });
  });
});
