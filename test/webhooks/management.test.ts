import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { FAST_WEBHOOKS } from './receiver.js';

describeEachDatabase('webhooks: management', (kind) => {
  let t: TestApp;
  let strict: TestApp;
  const create = (payload: unknown, company = 'acme', app = t) => app.as(company, { method: 'POST', url: '/v1/webhooks', payload: payload as object });

  before(async () => {
    t = await createTestApp(kind, { env: FAST_WEBHOOKS });
    strict = await createTestApp(kind);
  });
  after(async () => {
    await t.close();
    await strict.close();
  });

  it('creates a webhook with a whsec_ secret shown only in the 201', async () => {
    const response = await create({ url: 'http://127.0.0.1:9/hook', events: ['record.created'], description: 'CRM' });
    const created = expectStatus(response, 201);
    assert.deepEqual(Object.keys(created).sort(), ['created_at', 'description', 'enabled', 'events', 'id', 'secret', 'updated_at', 'url']);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(created.secret.slice(6), 'base64').length >= 24);
    assert.equal(created.enabled, true);
    assert.equal(response.headers.location, `http://wrs.test/v1/webhooks/${created.id}`);
    const read = expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${created.id}` }), 200);
    const { secret: _secret, ...shown } = created;
    assert.deepEqual(read, shown);
    const list = expectStatus(await t.as('acme', { method: 'GET', url: '/v1/webhooks' }), 200);
    assert.equal(list.count, list.results.length);
    assert.ok(list.results.some((webhook: { id: string; secret?: string }) => webhook.id === created.id && webhook.secret === undefined));
  });

  it('takes an Idempotency-Key: a retried create answers the same webhook and registers no second one', async () => {
    const send = (events: string[]) =>
      t.as('initech', {
        method: 'POST',
        url: '/v1/webhooks',
        headers: { 'idempotency-key': 'register-crm-hook' },
        payload: { url: 'http://127.0.0.1:9/once', events },
      });
    const first = await send(['record.created']);
    const created = expectStatus(first, 201);
    const replay = await send(['record.created']);
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
    expectStatus(await send(['*']), 422, 'idempotency_key_reused');
    const list = expectStatus(await t.as('initech', { method: 'GET', url: '/v1/webhooks' }), 200);
    assert.deepEqual(
      list.results.filter((webhook: { url: string }) => webhook.url.endsWith('/once')).map((webhook: { id: string }) => webhook.id),
      [created.id],
    );
  });

  it('stores the secret sealed, never as sent', async () => {
    const created = expectStatus(await create({ url: 'http://127.0.0.1:9/sealed', events: ['*'] }), 201);
    const row = await t.ctx.database.db.selectFrom('webhooks').select('secret').where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.ok(!row.secret.includes(created.secret.slice(6)));
    assert.match(row.secret, /^v1:/);
  });

  it('patches, answers 200 with the webhook, and deletes with 204', async () => {
    const created = expectStatus(await create({ url: 'http://127.0.0.1:9/a', events: ['record.created'] }), 201);
    const patched = expectStatus(
      await t.as('acme', { method: 'PATCH', url: `/v1/webhooks/${created.id}`, payload: { events: ['*'], enabled: false, description: null } }),
      200,
    );
    assert.deepEqual(patched.events, ['*']);
    assert.equal(patched.enabled, false);
    assert.equal(patched.description, null);
    assert.equal(patched.url, created.url);
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/webhooks/${created.id}` }), 204);
    expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${created.id}` }), 404, 'not_found');
    expectStatus(await t.as('acme', { method: 'DELETE', url: `/v1/webhooks/${created.id}` }), 404, 'not_found');
  });

  it('refuses bad bodies with 400 and a message', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'http://127.0.0.1:9/x', events: [] }, /events/],
      [{ url: 'http://127.0.0.1:9/x', events: ['record.archived'] }, /events/],
      [{ url: 'http://127.0.0.1:9/x', events: ['*'], colour: 'red' }, /colour/],
      [{ url: 'not a url', events: ['*'] }, /url/],
      [{ url: 'ftp://example.com/x', events: ['*'] }, /url/],
      [{ events: ['*'] }, /url/],
      [{ url: 'http://127.0.0.1:9/x', events: ['*'], enabled: 'yes' }, /enabled/],
    ];
    for (const [payload, message] of cases) {
      const response = await create(payload);
      assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
      assert.match(response.json().message, message, JSON.stringify(payload));
      assert.ok(typeof response.json().code === 'string');
    }
    const created = expectStatus(await create({ url: 'http://127.0.0.1:9/x', events: ['*'] }), 201);
    for (const payload of [{}, { secret: 'mine' }, { events: [] }, { url: 'nope' }]) {
      const response = await t.as('acme', { method: 'PATCH', url: `/v1/webhooks/${created.id}`, payload });
      assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
    }
  });

  it('refuses loopback, private and other non-public receivers, and http, unless allowed', async () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.1.2.3/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      // IPv4-compatible IPv6 (::/96): the URL parser writes [::127.0.0.1] as [::7f00:1].
      'https://[::127.0.0.1]/x',
      'https://[::7f00:1]/x',
      'https://[::a9fe:a9fe]/latest',
      'https://[::8.8.8.8]/x',
      'https://0.0.0.0/x',
      'https://224.0.0.1/x',
    ]) {
      const response = await create({ url, events: ['*'] }, 'acme', strict);
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.match(response.json().message, /resolves to a non-public address/, url);
    }
    // A name is refused without the internal address it resolves to.
    const named = await create({ url: 'https://localhost/x', events: ['*'] }, 'acme', strict);
    assert.equal(named.json().message, "url: the host 'localhost' resolves to a non-public address; webhooks are delivered to public addresses only");
    const http = await create({ url: 'http://93.184.215.14/x', events: ['*'] }, 'acme', strict);
    assert.equal(http.statusCode, 400);
    assert.match(http.json().message, /https/);
    expectStatus(await create({ url: 'https://93.184.215.14/x', events: ['*'] }, 'acme', strict), 201);
    const created = expectStatus(await create({ url: 'https://93.184.215.14/y', events: ['*'] }, 'acme', strict), 201);
    const patch = await strict.as('acme', { method: 'PATCH', url: `/v1/webhooks/${created.id}`, payload: { url: 'https://127.0.0.1/' } });
    expectStatus(patch, 400, 'invalid_body');
  });

  it('answers record tokens with 403 and keeps companies apart', async () => {
    await defineType(t, 'acme', 'loan');
    const record = await createRecord(t, 'acme', 'loan');
    const minted = expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens` }), 201);
    const created = expectStatus(await create({ url: 'http://127.0.0.1:9/t', events: ['*'] }), 201);
    for (const [method, url] of [
      ['GET', '/v1/webhooks'],
      ['POST', '/v1/webhooks'],
      ['GET', `/v1/webhooks/${created.id}`],
      ['PATCH', `/v1/webhooks/${created.id}`],
      ['DELETE', `/v1/webhooks/${created.id}`],
      ['GET', `/v1/webhooks/${created.id}/deliveries`],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${minted.token}` },
        ...(method === 'POST' || method === 'PATCH' ? { payload: {} } : {}),
      });
      expectStatus(response, 403, 'forbidden');
    }
    for (const [method, url] of [
      ['GET', `/v1/webhooks/${created.id}`],
      ['PATCH', `/v1/webhooks/${created.id}`],
      ['DELETE', `/v1/webhooks/${created.id}`],
      ['GET', `/v1/webhooks/${created.id}/deliveries`],
      ['POST', `/v1/webhooks/${created.id}/deliveries/msg_x/redeliver`],
    ] as const) {
      const response = await t.as('globex', { method, url, ...(method === 'PATCH' ? { payload: { enabled: false } } : {}) });
      expectStatus(response, 404, 'not_found');
    }
    const globexList = expectStatus(await t.as('globex', { method: 'GET', url: '/v1/webhooks' }), 200);
    assert.deepEqual(globexList, { count: 0, results: [] });
    expectStatus(await t.as('acme', { method: 'GET', url: `/v1/webhooks/${created.id}` }), 200);
  });
});
