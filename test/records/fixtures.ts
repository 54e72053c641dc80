import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/test-app.js';

/** A loan type with one field of each kind, three statuses and three views. */
export const LOAN_TYPE = {
  name: 'Loan',
  fields: [
    { uid: 'f_amount', field_name: 'Amount', type: 'number', required: true },
    { uid: 'f_due', field_name: 'Due date', type: 'date', required: false },
    { uid: 'f_signed', field_name: 'Signed', type: 'boolean', required: false },
    { uid: 'f_borrower', field_name: 'Borrower', type: 'string', required: true },
  ],
  statuses: ['new', 'in_review', 'done'],
  views: [
    { id: 'open', name: 'Open', statuses: ['new', 'in_review'] },
    { id: 'closed', name: 'Closed', statuses: ['done'] },
    { id: 'everything', name: 'Everything', statuses: [] },
  ],
};

export const VALID_LOAN = { f_amount: 1200.5, f_due: '2024-02-29', f_signed: false, f_borrower: 'Ada' };

export async function defineType(t: TestApp, company: string, typeId: string, definition: unknown = LOAN_TYPE) {
  const response = await t.admin({ method: 'PUT', url: `/admin/v1/companies/${company}/record-types/${typeId}`, payload: definition as object });
  assert.ok([200, 201].includes(response.statusCode), response.body);
  return response.json();
}

export async function createRecord(t: TestApp, company: string, typeId: string, body: object = VALID_LOAN) {
  const response = await t.as(company, { method: 'POST', url: `/v1/records/${typeId}`, payload: body });
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
}

export async function importRecords(t: TestApp, company: string, records: object[]) {
  const response = await t.admin({ method: 'POST', url: `/admin/v1/companies/${company}/records`, payload: records });
  assert.equal(response.statusCode, 201, response.body);
  assert.deepEqual(response.json(), { imported: records.length });
}

export function expectStatus(response: LightMyRequestResponse, status: number, code?: string) {
  assert.equal(response.statusCode, status, response.body);
  if (code !== undefined) assert.equal(response.json().code, code, response.body);
  return response.body === '' ? undefined : response.json();
}

/** Follows a `next` / `prev` link of a list answer through inject. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
