import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { lobCheck } from '../checks/check-factory.js';
import { describeEachDatabase } from '../helpers/databases.js';
import { changedTables, dataFingerprint } from '../helpers/data-fingerprint.js';
import { documentedOperations, operationKey } from '../helpers/openapi-operations.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { minimalTemplate } from '../pdf/fixtures/templates.js';
import { LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';
import { FAST_WEBHOOKS } from '../webhooks/receiver.js';

/**
 * Company B against company A's data, route by route: every /v1 operation of the OpenAPI
 * document has a row. Anything addressed by an ID of A answers 404 exactly as an unknown ID
 * does; lists and filters show B's data only; cursors and IDs of A are unknown to B. After each
 * row nothing stored has changed. A new /v1 route without a row fails the coverage test.
 */
const A = 'company-a';
const B = 'company-b';

/** What company A owns, and the lookalikes of company B. */
interface World {
  recordA: string;
  otherRecordA: string;
  tokenKeyA: string;
  recordTokenA: string;
  fileA: string;
  recordB: string;
  checkCursorA: string;
  webhookA: string;
  deliveryA: string;
}

interface Row {
  readonly operation: string;
  readonly run: (t: TestApp, w: World) => Promise<void>;
}

const asB = (t: TestApp, options: InjectOptions) => t.as(B, options, 'user-b');
const asA = (t: TestApp, options: InjectOptions) => t.as(A, options, 'user-a');

function expectNotFound(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.statusCode, 404, `${what}: ${response.body}`);
  assert.equal(response.json().code, 'not_found', what);
}

function expectOk(response: LightMyRequestResponse, what: string): any {
  assert.ok(response.statusCode >= 200 && response.statusCode < 300, `${what}: ${response.statusCode} ${response.body}`);
  return response.body === '' ? undefined : response.json();
}

/** B's answer for an ID of A is the very answer for an ID nobody has (but for the ID in the message). */
async function sameAsUnknown(t: TestApp, options: (id: string) => InjectOptions, idOfA: string, what: string): Promise<void> {
  const forA = await asB(t, options(idOfA));
  const forNobody = await asB(t, options('no-such-id'));
  expectNotFound(forA, what);
  assert.equal(forNobody.statusCode, forA.statusCode, `${what}: an unknown ID answers alike`);
  assert.equal(forA.json().message.replaceAll(idOfA, 'ID'), forNobody.json().message.replaceAll('no-such-id', 'ID'), what);
}

const ROWS: Row[] = [
  {
    operation: 'GET /v1/events',
    async run(t) {
      const all = expectOk(await asB(t, { method: 'GET', url: '/v1/events?limit=10000' }), 'list');
      assert.deepEqual(
        all.results.map((event: { id: string }) => event.id),
        ['evt-b-1'],
      );
      for (const query of ['flow_key=flow-of-a', 'flow_key__contains=of-a', 'type=secret_a', 'user_key=user-of-a', 'step_key__gte=a', 'order_by=-flow_key']) {
        const filtered = expectOk(await asB(t, { method: 'GET', url: `/v1/events?${query}` }), query);
        assert.ok(
          filtered.results.every((event: { company_id: string }) => event.company_id === B),
          query,
        );
        assert.ok(!JSON.stringify(filtered).includes('of-a'), `${query} shows nothing of A`);
      }
    },
  },
  {
    operation: 'GET /v1/event-types',
    async run(t, w) {
      const ofB = expectOk(await asB(t, { method: 'GET', url: '/v1/event-types' }), 'list');
      assert.deepEqual(ofB, { count: 1, results: [{ type: 'user_flow_session_started', count: 1 }] }, "B's one event, nothing of A's");
      const ofA = expectOk(await asA(t, { method: 'GET', url: '/v1/event-types' }), 'list');
      assert.ok(
        ofA.results.some((row: { type: string }) => row.type === 'secret_a'),
        'A sees its own',
      );
      const withTokenOfA = await t.app.inject({ method: 'GET', url: '/v1/event-types', headers: { authorization: `Bearer ${w.recordTokenA}` } });
      assert.equal(withTokenOfA.statusCode, 403, 'a record token lists no event types');
    },
  },
  {
    operation: 'GET /v1/events/changes',
    async run(t) {
      const feed = expectOk(await asB(t, { method: 'GET', url: '/v1/events/changes?limit=10000' }), 'feed');
      assert.deepEqual(
        feed.results.map((event: { id: string }) => event.id),
        ['evt-b-1'],
      );
      const cursorOfA = expectOk(await asA(t, { method: 'GET', url: '/v1/events/changes?limit=1' }), "A's feed").next_cursor;
      const response = await asB(t, { method: 'GET', url: `/v1/events/changes?after=${cursorOfA}` });
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(response.json().invalid_params, ['after'], 'a cursor of A is no cursor for B');
    },
  },
  {
    operation: 'GET /v1/events/stream',
    async run(t) {
      // The live part runs over a real port (test/events/stream.test.ts); a cursor of A never opens B's stream.
      const cursorOfA = expectOk(await asA(t, { method: 'GET', url: '/v1/events/changes?limit=1' }), "A's feed").next_cursor;
      const byHeader = await asB(t, { method: 'GET', url: '/v1/events/stream', headers: { 'last-event-id': cursorOfA } });
      assert.equal(byHeader.statusCode, 400, byHeader.body);
      assert.equal(byHeader.json().code, 'invalid_header');
      const byQuery = await asB(t, { method: 'GET', url: `/v1/events/stream?after=${cursorOfA}` });
      assert.equal(byQuery.statusCode, 400, byQuery.body);
      assert.deepEqual(byQuery.json().invalid_params, ['after']);
    },
  },
  {
    operation: 'GET /v1/records',
    async run(t, w) {
      const all = expectOk(await asB(t, { method: 'GET', url: '/v1/records' }), 'list');
      assert.deepEqual(all.results.map((record: { id: string }) => record.id).sort(), [w.recordB, 'shared-id'].sort());
      assert.equal(all.results.find((record: { id: string }) => record.id === 'shared-id').status, 'b-status', "the same ID is B's own record");
      for (const query of ['record_type=custom', 'view_id=open-a', 'record_type=uccfiling', 'created_after=2000-01-01']) {
        const filtered = expectOk(await asB(t, { method: 'GET', url: `/v1/records?${query}` }), query);
        assert.ok(
          filtered.results.every((record: { id: string }) => [w.recordB, 'shared-id'].includes(record.id)),
          query,
        );
      }
      for (const cursor of ['next', 'prev']) {
        const response = await asB(t, { method: 'GET', url: `/v1/records?${cursor}=${w.recordA}` });
        assert.equal(response.statusCode, 400, response.body);
        assert.deepEqual(response.json().invalid_params, [cursor], `a record of A is no cursor for B (${cursor})`);
      }
    },
  },
  {
    operation: 'POST /v1/records/{typeId}',
    async run(t) {
      await sameAsUnknown(t, (id) => ({ method: 'POST', url: `/v1/records/${id}`, payload: VALID_LOAN }), 'loan-a', 'a record type of A');
    },
  },
  {
    operation: 'GET /v1/records/{record}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/records/${id}` }), w.recordA, 'a record of A');
    },
  },
  {
    operation: 'PATCH /v1/records/{record}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'PATCH', url: `/v1/records/${id}`, payload: { status: 'done' } }), w.recordA, 'updating a record of A');
      await sameAsUnknown(t, (id) => ({ method: 'PATCH', url: `/v1/records/${id}`, payload: { f_amount: 1 } }), w.otherRecordA, 'updating a field');
    },
  },
  {
    operation: 'POST /v1/records/{record}/tokens',
    async run(t, w) {
      await sameAsUnknown(
        t,
        (id) => ({ method: 'POST', url: `/v1/records/${id}/tokens`, payload: { expires_in: 60 } }),
        w.recordA,
        'minting for a record of A',
      );
    },
  },
  {
    operation: 'POST /v1/records/{record}/actions',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'POST', url: `/v1/records/${id}/actions`, payload: {} }), w.recordA, 'minting through /actions');
    },
  },
  {
    operation: 'GET /v1/records/{record}/tokens',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/records/${id}/tokens` }), w.recordA, 'listing the tokens of a record of A');
    },
  },
  {
    operation: 'DELETE /v1/records/{record}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'DELETE', url: `/v1/records/${id}` }), w.recordA, 'deleting a record of A');
      const stillThere = await t.app.inject({ method: 'GET', url: `/v1/records/${w.recordA}`, headers: { authorization: `Bearer ${w.recordTokenA}` } });
      assert.equal(stillThere.statusCode, 200, "A's record is not deleted");
    },
  },
  {
    operation: 'DELETE /v1/records/{record}/tokens/{key}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'DELETE', url: `/v1/records/${id}/tokens/${w.tokenKeyA}` }), w.recordA, 'revoking on a record of A');
      await sameAsUnknown(t, (key) => ({ method: 'DELETE', url: `/v1/records/${w.recordB}/tokens/${key}` }), w.tokenKeyA, "revoking A's key on B's record");
      const stillWorks = await t.app.inject({ method: 'GET', url: `/v1/records/${w.recordA}`, headers: { authorization: `Bearer ${w.recordTokenA}` } });
      assert.equal(stillWorks.statusCode, 200, "A's record token is not revoked");
    },
  },
  {
    operation: 'PUT /v1/records/{record}/steps',
    async run(t, w) {
      const step = (template: string) => ({ type: 'pdf_create', inputs: { pdf_filename: 'x', template_id: template } });
      await sameAsUnknown(t, (id) => ({ method: 'PUT', url: `/v1/records/${id}/steps`, payload: step('invoice-a') }), w.recordA, 'a step on a record of A');
      const withTemplateOfA = await asB(t, { method: 'PUT', url: `/v1/records/${w.recordB}/steps`, payload: step('invoice-a') });
      assert.equal(withTemplateOfA.statusCode, 400, withTemplateOfA.body);
      assert.equal(withTemplateOfA.json().code, 'template_not_found', 'a template of A is unknown to B');
    },
  },
  {
    operation: 'GET /v1/records/{record}/files/{fileId}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/records/${id}/files/${w.fileA}` }), w.recordA, 'a file on a record of A');
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/records/${w.recordB}/files/${id}` }), w.fileA, "A's file ID on B's record");
    },
  },
  {
    operation: 'GET /v1/records/{record}/files',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/records/${id}/files` }), w.recordA, 'listing the files of a record of A');
      const ofB = expectOk(await asB(t, { method: 'GET', url: `/v1/records/${w.recordB}/files` }), "B lists its own record's files");
      assert.deepEqual(ofB, { count: 0, results: [] });
    },
  },
  {
    operation: 'GET /v1/record-types',
    async run(t) {
      const all = expectOk(await asB(t, { method: 'GET', url: '/v1/record-types' }), 'list');
      assert.deepEqual(
        all.results.map((type: { id: string }) => type.id),
        ['loan-b'],
      );
      assert.ok(!JSON.stringify(all).includes('open-a'), "nothing of A's types");
    },
  },
  {
    operation: 'GET /v1/templates',
    async run(t) {
      const ofB = expectOk(await asB(t, { method: 'GET', url: '/v1/templates' }), 'list');
      assert.ok(!JSON.stringify(ofB).includes('invoice-a'), "nothing of A's templates");
      const ofA = expectOk(await asA(t, { method: 'GET', url: '/v1/templates' }), 'list');
      assert.deepEqual(
        ofA.results.map((template: { id: string }) => template.id),
        ['invoice-a'],
      );
    },
  },
  {
    operation: 'GET /v1/record-types/{typeId}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/record-types/${id}` }), 'loan-a', 'a record type of A');
      const withTokenOfA = await t.app.inject({ method: 'GET', url: '/v1/record-types/loan-b', headers: { authorization: `Bearer ${w.recordTokenA}` } });
      assert.equal(withTokenOfA.statusCode, 403, "A's record token reads no type of B");
    },
  },
  {
    operation: 'GET /v1/checks',
    async run(t, w) {
      const all = expectOk(await asB(t, { method: 'GET', url: '/v1/checks?limit=10000' }), 'list');
      assert.deepEqual(
        all.results.map((check: { id: string }) => check.id),
        ['chk_b0001'],
      );
      const filtered = expectOk(await asB(t, { method: 'GET', url: '/v1/checks?date_created__gte=2000-01-01&sort_by=send_date' }), 'filtered');
      assert.deepEqual(
        filtered.results.map((check: { id: string }) => check.id),
        ['chk_b0001'],
      );
      const withCursorOfA = await asB(t, { method: 'GET', url: `/v1/checks?limit=1&after=${encodeURIComponent(w.checkCursorA)}` });
      assert.equal(withCursorOfA.statusCode, 400, withCursorOfA.body);
      assert.deepEqual(withCursorOfA.json().invalid_params, ['after'], "a cursor of A is not B's");
    },
  },
  {
    operation: 'GET /v1/webhooks',
    async run(t) {
      assert.deepEqual(expectOk(await asB(t, { method: 'GET', url: '/v1/webhooks' }), 'list'), { count: 0, results: [] });
    },
  },
  {
    operation: 'POST /v1/webhooks',
    async run(t) {
      // Nothing of A to address: a refused registration of B stores nothing, and B still sees none of A's.
      const refused = await asB(t, { method: 'POST', url: '/v1/webhooks', payload: { url: 'http://127.0.0.1:9/b', events: [] } });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(expectOk(await asB(t, { method: 'GET', url: '/v1/webhooks' }), 'list').count, 0);
    },
  },
  {
    operation: 'GET /v1/webhooks/{id}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/webhooks/${id}` }), w.webhookA, 'a webhook of A');
    },
  },
  {
    operation: 'PATCH /v1/webhooks/{id}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'PATCH', url: `/v1/webhooks/${id}`, payload: { enabled: false } }), w.webhookA, 'disabling a webhook of A');
    },
  },
  {
    operation: 'POST /v1/webhooks/{id}/secret',
    async run(t, w) {
      await sameAsUnknown(
        t,
        (id) => ({ method: 'POST', url: `/v1/webhooks/${id}/secret`, payload: { overlap_seconds: 0 } }),
        w.webhookA,
        'rotating the secret of a webhook of A',
      );
    },
  },
  {
    operation: 'DELETE /v1/webhooks/{id}',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'DELETE', url: `/v1/webhooks/${id}` }), w.webhookA, 'deleting a webhook of A');
    },
  },
  {
    operation: 'GET /v1/webhooks/{id}/deliveries',
    async run(t, w) {
      await sameAsUnknown(t, (id) => ({ method: 'GET', url: `/v1/webhooks/${id}/deliveries` }), w.webhookA, 'the deliveries of a webhook of A');
    },
  },
  {
    operation: 'POST /v1/webhooks/{id}/deliveries/{delivery}/redeliver',
    async run(t, w) {
      await sameAsUnknown(
        t,
        (id) => ({ method: 'POST', url: `/v1/webhooks/${id}/deliveries/${w.deliveryA}/redeliver` }),
        w.webhookA,
        'redelivering a delivery of A',
      );
    },
  },
];

describeEachDatabase('company isolation, route by route', (kind) => {
  let t: TestApp;
  let w: World;

  before(async () => {
    // A's webhook points at this machine; no delivery worker runs here, its deliveries stay pending.
    t = await createTestApp(kind, { env: FAST_WEBHOOKS });
    const admin = async (method: 'PUT' | 'POST', url: string, payload: unknown) =>
      expectOk(await t.admin({ method, url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) }), url);
    const viewA = { ...LOAN_TYPE, views: [...LOAN_TYPE.views, { id: 'open-a', name: 'Open', statuses: [] }] };
    await admin('PUT', `/admin/v1/companies/${A}/record-types/loan-a`, viewA);
    await admin('PUT', `/admin/v1/companies/${B}/record-types/loan-b`, LOAN_TYPE);
    const webhookA = expectOk(await asA(t, { method: 'POST', url: '/v1/webhooks', payload: { url: 'http://127.0.0.1:9/a', events: ['*'] } }), 'webhook of A');
    const recordA = expectOk(await asA(t, { method: 'POST', url: '/v1/records/loan-a', payload: VALID_LOAN }), 'record of A');
    const otherRecordA = expectOk(await asA(t, { method: 'POST', url: '/v1/records/loan-a', payload: VALID_LOAN }), 'record of A');
    const recordB = expectOk(await asB(t, { method: 'POST', url: '/v1/records/loan-b', payload: VALID_LOAN }), 'record of B');
    await admin('POST', `/admin/v1/companies/${A}/records`, [{ id: 'shared-id', record_type: 'uccfiling', status: 'a-status' }]);
    await admin('POST', `/admin/v1/companies/${B}/records`, [{ id: 'shared-id', record_type: 'uccfiling', status: 'b-status' }]);
    const minted = expectOk(await asA(t, { method: 'POST', url: `/v1/records/${recordA.id}/tokens`, payload: { expires_in: 3600 } }), 'token of A');
    await admin('PUT', `/admin/v1/companies/${A}/templates/invoice-a`, minimalTemplate());
    const step = expectOk(
      await asA(t, {
        method: 'PUT',
        url: `/v1/records/${recordA.id}/steps`,
        payload: { type: 'pdf_create', inputs: { pdf_filename: 'a', template_id: 'invoice-a' } },
      }),
      'PDF of A',
    );
    await admin('POST', `/admin/v1/companies/${A}/checks`, [lobCheck({ id: 'chk_a0001' }), lobCheck({ id: 'chk_a0002' })]);
    await admin('POST', `/admin/v1/companies/${B}/checks`, [lobCheck({ id: 'chk_b0001' })]);
    const pageOfA = expectOk(await asA(t, { method: 'GET', url: '/v1/checks?limit=1' }), "a page of A's checks");
    await admin('POST', `/admin/v1/companies/${A}/events`, [
      { id: 'evt-a-1', type: 'secret_a', flow_key: 'flow-of-a', step_key: 'step-of-a', user_id: 'user-of-a' },
      { id: 'evt-a-2', type: 'user_flow_session_started', flow_key: 'flow-of-a', version_key: 'v-of-a' },
    ]);
    await admin('POST', `/admin/v1/companies/${B}/events`, [{ id: 'evt-b-1', type: 'user_flow_session_started', flow_key: 'flow-b' }]);
    const deliveriesA = expectOk(await asA(t, { method: 'GET', url: `/v1/webhooks/${webhookA.id}/deliveries` }), 'deliveries of A');
    w = {
      webhookA: webhookA.id,
      deliveryA: deliveriesA.results[0].id,
      recordA: recordA.id,
      otherRecordA: otherRecordA.id,
      tokenKeyA: minted.key,
      recordTokenA: minted.token,
      fileA: step.details.file_id,
      recordB: recordB.id,
      checkCursorA: new URL(pageOfA.next_url).searchParams.get('after')!,
    };
  });
  after(() => t.close());

  it('has a row for every /v1 operation of the OpenAPI document', async () => {
    const documented = (await documentedOperations(t, '/v1/')).map(operationKey);
    assert.deepEqual(ROWS.map((row) => row.operation).sort(), documented.sort());
  });

  for (const row of ROWS) {
    it(row.operation, async () => {
      const stored = await dataFingerprint(t.ctx.database);
      await row.run(t, w);
      assert.deepEqual(changedTables(stored, await dataFingerprint(t.ctx.database)), [], 'nothing stored changed');
    });
  }

  it("leaves A's data as A sees it", async () => {
    const record = expectOk(await asA(t, { method: 'GET', url: `/v1/records/${w.recordA}` }), 'A reads its record');
    assert.equal(record.status, 'new');
    assert.equal(expectOk(await asA(t, { method: 'GET', url: '/v1/records/shared-id' }), 'shared').status, 'a-status');
    const tokens = expectOk(await asA(t, { method: 'GET', url: `/v1/records/${w.recordA}/tokens` }), 'A lists its tokens');
    assert.deepEqual(
      tokens.results.map((token: { key: string }) => token.key),
      [w.tokenKeyA],
    );
    const events = expectOk(await asA(t, { method: 'GET', url: '/v1/events' }), 'A lists its events');
    assert.deepEqual(events.results.map((event: { id: string }) => event.id).sort(), ['evt-a-1', 'evt-a-2']);
  });
});
