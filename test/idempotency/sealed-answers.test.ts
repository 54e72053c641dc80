import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';

// No delivery worker runs here: the receiver is never called.
const WEBHOOK = { url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'CRM' };
const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;

/** The base64url runs in `text` that decode to a JSON object naming an `alg`: the first segment of a JWT. */
function joseHeadersIn(text: string): string[] {
  return [...text.matchAll(/eyJ[A-Za-z0-9_-]+/g)]
    .map(([run]) => run)
    .filter((run) => {
      try {
        const header: unknown = JSON.parse(Buffer.from(run, 'base64url').toString('utf8'));
        return typeof header === 'object' && header !== null && 'alg' in header;
      } catch {
        return false;
      }
    });
}

describeEachDatabase('Idempotency-Key: kept answers hold no secret in plain text', (kind) => {
  let t: TestApp;
  let recordId: string;

  before(async () => {
    t = await createTestApp(kind, { env: { WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    await defineType(t, 'acme', 'loan', LOAN_TYPE);
    recordId = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201).id;
  });
  after(() => t.close());

  const withKey = (key: string, options: InjectOptions): InjectOptions => ({ ...options, headers: { ...options.headers, 'idempotency-key': key } });
  const createHook = (key: string, company = 'acme') => t.as(company, withKey(key, { method: 'POST', url: '/v1/webhooks', payload: WEBHOOK }));
  const mint = (key: string) => t.as('acme', withKey(key, { method: 'POST', url: `/v1/records/${recordId}/tokens`, payload: { expires_in: 600 } }));
  const rows = () =>
    t.ctx.database.db
      .selectFrom('idempotency_keys')
      .select(['company_id', 'scope', 'key', 'request_hash', 'response_status', 'response_headers', 'response_body', 'claim_token'])
      .execute();

  it('stores the answers of POST /v1/webhooks and POST /tokens sealed, and replays the identical body', async () => {
    const hook = await createHook('sealed-hook');
    assert.equal(hook.statusCode, 201, hook.body);
    assert.match(hook.json().secret, /^whsec_/);
    const token = await mint('sealed-mint');
    assert.equal(token.statusCode, 201, token.body);
    assert.match(token.json().token, JWT);

    const stored = JSON.stringify(await rows());
    assert.ok(!stored.includes('whsec_'), 'no webhook secret in idempotency_keys');
    assert.ok(!stored.includes(hook.json().secret.slice('whsec_'.length)), 'not even the secret without its prefix');
    // Sealed bytes in base64 may hold "eyJ" by chance: a JWT is a segment that decodes to a JOSE header.
    assert.deepEqual(joseHeadersIn(stored), [], 'no JWT in idempotency_keys');
    assert.ok(!stored.includes(token.json().token.split('.')[1]), "not even the token's claims");

    for (const [first, again] of [
      [hook, await createHook('sealed-hook')],
      [token, await mint('sealed-mint')],
    ] as const) {
      assert.equal(again.statusCode, first.statusCode);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      assert.equal(again.headers.location, first.headers.location);
    }
    const hooks = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/webhooks' }), 200);
    assert.equal(hooks.results.length, 1, 'the replay registered no second webhook');
  });

  it("does not open a sealed answer copied to another company's key", async () => {
    const first = await createHook('copied-key', 'acme');
    assert.equal(first.statusCode, 201);
    const [row] = (await rows()).filter((r) => r.company_id === 'acme' && r.key === 'copied-key');
    // The same request (same path and body) by globex, whose key row holds acme's sealed answer.
    await t.ctx.database.db
      .insertInto('idempotency_keys')
      .values({ ...row!, company_id: 'globex', expires_at: '9999-01-01T00:00:00.000Z' })
      .execute();
    const replay = await createHook('copied-key', 'globex');
    assert.equal(replay.statusCode, 500);
    assert.ok(!replay.body.includes('whsec_'), replay.body);
    assert.equal(replay.headers['idempotent-replayed'], undefined);
  });

  it('replays an answer kept in plain text before the upgrade', async () => {
    const first = await mint('plain-before-upgrade');
    assert.equal(first.statusCode, 201);
    // As an earlier version kept it: the body as sent.
    await t.ctx.database.db
      .updateTable('idempotency_keys')
      .set({ response_body: first.body })
      .where('company_id', '=', 'acme')
      .where('key', '=', 'plain-before-upgrade')
      .execute();
    const replay = await mint('plain-before-upgrade');
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
  });
});
