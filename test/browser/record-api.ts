// What the record page and hosted form tests check or change through the API, beside the browser.
import assert from 'node:assert/strict';
import { DEMO_COMPANY_ID, type ConsoleService } from './harness.js';

export interface RecordBody {
  id: string;
  status: string;
  fields: Record<string, unknown>;
}

export async function getRecord(service: ConsoleService, recordId: string): Promise<RecordBody> {
  const response = await service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: `/v1/records/${recordId}` });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<RecordBody>();
}

export async function patchRecord(service: ConsoleService, recordId: string, body: Record<string, unknown>): Promise<void> {
  const response = await service.t.as(DEMO_COMPANY_ID, { method: 'PATCH', url: `/v1/records/${recordId}`, payload: body });
  assert.equal(response.statusCode, 200, response.body);
}

export async function mintRecordToken(
  service: ConsoleService,
  recordId: string,
  expiresIn = 3600,
  narrowing: { fields?: string[]; status_editable?: boolean; label?: string } = {},
): Promise<{ token: string; key: string }> {
  const response = await service.t.as(DEMO_COMPANY_ID, {
    method: 'POST',
    url: `/v1/records/${recordId}/tokens`,
    payload: { expires_in: expiresIn, ...narrowing },
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.json<{ token: string; key: string }>();
}

export async function liveTokenKeys(service: ConsoleService, recordId: string): Promise<string[]> {
  const response = await service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: `/v1/records/${recordId}/tokens` });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ results: { key: string }[] }>().results.map((token) => token.key);
}

export async function revokeRecordToken(service: ConsoleService, recordId: string, key: string): Promise<void> {
  const response = await service.t.as(DEMO_COMPANY_ID, { method: 'DELETE', url: `/v1/records/${recordId}/tokens/${key}` });
  assert.equal(response.statusCode, 204, response.body);
}

interface RecordTypeDefinition {
  name: string;
  fields: { uid: string; field_name: string; type: string; required: boolean }[];
  statuses: string[];
  views: { id: string; name: string; statuses: string[] }[];
  form?: { title?: string; instructions?: string; fields: { uid: string; editable?: boolean }[]; status_editable?: boolean };
}

/** Replaces the demo loan type through the operator API; answers the definition it replaced. */
export async function replaceLoanType(service: ConsoleService, change: (type: RecordTypeDefinition) => RecordTypeDefinition): Promise<RecordTypeDefinition> {
  const current = await service.t.as(DEMO_COMPANY_ID, { method: 'GET', url: '/v1/record-types/equipment-loan' });
  assert.equal(current.statusCode, 200, current.body);
  const { name, fields, statuses, views } = current.json<RecordTypeDefinition>();
  const original = { name, fields, statuses, views };
  const replaced = await service.t.admin({
    method: 'PUT',
    url: `/admin/v1/companies/${DEMO_COMPANY_ID}/record-types/equipment-loan`,
    payload: change(original),
  });
  assert.ok(replaced.statusCode < 300, replaced.body);
  return original;
}

export async function putLoanType(service: ConsoleService, definition: RecordTypeDefinition): Promise<void> {
  const response = await service.t.admin({ method: 'PUT', url: `/admin/v1/companies/${DEMO_COMPANY_ID}/record-types/equipment-loan`, payload: definition });
  assert.ok(response.statusCode < 300, response.body);
}

/** Removes a record from the database, as an operator's clean-up would (the API has no delete). */
export async function deleteRecordRow(service: ConsoleService, recordId: string): Promise<void> {
  await service.t.ctx.database.db.deleteFrom('records').where('company_id', '=', DEMO_COMPANY_ID).where('id', '=', recordId).execute();
}
