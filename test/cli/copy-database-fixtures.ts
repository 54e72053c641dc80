import assert from 'node:assert/strict';
import { lobCheck } from '../checks/check-factory.js';
import { anEvent, filterDataset, ingestOk } from '../events/event-fixtures.js';
import { settleFeed } from '../events/feed-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';
import { createRecord, defineRecordType, INVOICE_TYPE, pathOf, putTemplate } from '../pdf/fixtures/records.js';
import { invoiceTemplate } from '../pdf/fixtures/templates.js';
import { expectStatus } from '../records/fixtures.js';

export const COMPANY = 'acme';
/** A second company with enough events for several pages of the copy (2,000 rows a page). */
export const BUSY_COMPANY = 'globex';
export const BUSY_EVENTS = 4_500;
export const LOB_COMPANY = 'lobco';
/** A company with a retention period, one of whose events the sweep removed before the copy. */
export const RETENTION_COMPANY = 'retco';

/** What the source service holds, as the tests need to find it again after the copy. */
export interface SourceData {
  readonly recordIds: string[];
  readonly recordToken: string;
  readonly webhook: { id: string; secret: string };
  readonly webhookIdempotencyKey: string;
  readonly webhookCreatedBody: string;
  readonly pdfPath: string;
}

/** Fills a service with some of everything it stores, through its HTTP API. */
export async function fillService(t: TestApp, receiverBase: string): Promise<SourceData> {
  await defineRecordType(t, COMPANY, 'invoice', INVOICE_TYPE);
  await putTemplate(t, COMPANY, 'invoice', invoiceTemplate());

  const webhookIdempotencyKey = 'register-hook-once';
  const webhookResponse = await t.as(COMPANY, {
    method: 'POST',
    url: '/v1/webhooks',
    headers: { 'idempotency-key': webhookIdempotencyKey },
    payload: { url: `${receiverBase}/hook`, events: ['*'], description: 'CRM' },
  });
  const webhook = expectStatus(webhookResponse, 201) as { id: string; secret: string };

  const recordIds: string[] = [];
  for (const [customer, amount, paid] of [
    ['Ada', 12.5, true],
    ['Grace Hopper — ünïcödé 🎉', 0, false],
    ['Linus', null, null],
  ] as const) {
    const record = await createRecord(t, COMPANY, 'invoice', { f_customer: customer, ...(amount === null ? {} : { f_amount: amount, f_paid: paid }) });
    recordIds.push(record.id);
  }
  expectStatus(await t.as(COMPANY, { method: 'PATCH', url: `/v1/records/${recordIds[0]}`, payload: { status: 'sent' } }), 200);
  const minted = expectStatus(await t.as(COMPANY, { method: 'POST', url: `/v1/records/${recordIds[1]}/actions`, payload: { expires_in: 3600 } }), 201) as {
    token: string;
  };
  const step = expectStatus(
    await t.as(COMPANY, {
      method: 'PUT',
      url: `/v1/records/${recordIds[0]}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'Invoice 1', template_id: 'invoice' } },
    }),
    200,
  ) as { details: { download_url: string } };

  await ingestOk(t, COMPANY, filterDataset());
  const busy = Array.from({ length: BUSY_EVENTS }, (_, i) =>
    anEvent({ id: `busy-${String(i).padStart(5, '0')}`, excluded: i % 7 === 0, like_value: i % 3 === 0 ? null : i / 4, flow_session: i }),
  );
  for (let start = 0; start < busy.length; start += 1_000) await ingestOk(t, BUSY_COMPANY, busy.slice(start, start + 1_000));
  // Replaced events move to a new feed position: the copy must keep that order, not the ids'.
  await ingestOk(t, BUSY_COMPANY, [anEvent({ id: 'busy-00010', text: 'replaced' })]);

  expectStatus(await t.admin({ method: 'POST', url: `/admin/v1/companies/${COMPANY}/checks`, payload: [lobCheck({ id: 'chk_copy1' })] }), 201);
  expectStatus(
    await t.admin({ method: 'PUT', url: `/admin/v1/companies/${LOB_COMPANY}/providers/lob`, payload: { api_key: 'test_lobco_0dc8d51e0acffcb1880e' } }),
    200,
  );
  expectStatus(await t.admin({ method: 'PUT', url: `/admin/v1/companies/${RETENTION_COMPANY}/retention`, payload: { retention_days: 30 } }), 200);
  const profile = { display_name: 'Copy & Co Équipement', support_email: 'help@copy.example' };
  expectStatus(await t.admin({ method: 'PATCH', url: `/admin/v1/companies/${COMPANY}/profile`, payload: profile }), 200);
  const now = new Date().toISOString();
  await ingestOk(t, RETENTION_COMPANY, [
    anEvent({ id: 'ret-old', created_at: '2020-01-01T00:00:00.000Z', updated_at: '2020-01-01T00:00:00.000Z' }),
    anEvent({ id: 'ret-kept', created_at: now, updated_at: now }),
  ]);
  assert.equal((await t.ctx.retention.sweep()).removed, 1);

  return {
    recordIds,
    recordToken: minted.token,
    webhook,
    webhookIdempotencyKey,
    webhookCreatedBody: webhookResponse.body,
    pdfPath: pathOf(step.details.download_url),
  };
}

/** GET answers that must read the same before and after the move (the operator's and the companies'). */
export function comparedPaths(data: SourceData): { company: string; path: string }[] {
  const ofCompany = (company: string, paths: string[]) => paths.map((path) => ({ company, path }));
  return [
    ...ofCompany(COMPANY, [
      '/v1/record-types',
      '/v1/records',
      ...data.recordIds.map((id) => `/v1/records/${id}`),
      ...data.recordIds.map((id) => `/v1/records/${id}/files`),
      `/v1/records/${data.recordIds[1]}/tokens`,
      '/v1/templates',
      '/v1/webhooks',
      `/v1/webhooks/${data.webhook.id}`,
      `/v1/webhooks/${data.webhook.id}/deliveries`,
      '/v1/checks',
      '/v1/events?limit=1000',
    ]),
    ...ofCompany(BUSY_COMPANY, ['/v1/events?limit=1000', '/v1/events?limit=50&page=2&order_by=-created_at&flow_session__gte=100&flow_key__contains=board']),
    ...ofCompany(RETENTION_COMPANY, ['/v1/events?limit=10']),
    ...ofCompany('admin', [
      `/admin/v1/companies/${RETENTION_COMPANY}/retention`,
      `/admin/v1/companies/${COMPANY}/profile`,
      `/admin/v1/companies/${LOB_COMPANY}/providers`,
      `/admin/v1/companies/${COMPANY}/templates/invoice`,
    ]),
  ];
}

/** Reads one of `comparedPaths`: status and body. */
export async function readPath(t: TestApp, { company, path }: { company: string; path: string }): Promise<{ status: number; body: unknown }> {
  const response = company === 'admin' ? await t.admin({ url: path }) : await t.as(company, { url: path });
  return { status: response.statusCode, body: response.json() };
}

/** Every page of a company's change feed from the beginning, with the cursor that asked for it and the one it answered. */
export async function feedPages(
  t: TestApp,
  company: string,
  limit = 700,
): Promise<{ after: string; body: { results: { id: string }[]; next_cursor: string } }[]> {
  await settleFeed(t);
  const pages = [];
  let after = '';
  for (;;) {
    const response = await t.as(company, { url: `/v1/events/changes?limit=${limit}${after ? `&after=${after}` : ''}` });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json() as { results: { id: string }[]; next_cursor: string };
    pages.push({ after, body });
    if (body.results.length === 0) return pages;
    after = body.next_cursor;
  }
}
