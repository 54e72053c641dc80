import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/test-app.js';

/** The operator's call on a company's retention: GET, PUT (with a body) or DELETE. */
export function retentionCall(t: TestApp, company: string, method: 'GET' | 'PUT' | 'DELETE', body?: unknown): Promise<LightMyRequestResponse> {
  return t.admin({
    method,
    url: `/admin/v1/companies/${company}/retention`,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
  });
}

export async function setRetention(t: TestApp, company: string, days: number | null): Promise<void> {
  const response = await retentionCall(t, company, 'PUT', { retention_days: days });
  assert.equal(response.statusCode, 200, response.body);
}

/** `count` events of a company, `created_at` a day apart ending at `last`, ids `<prefix>-1`...: oldest first. */
export function daily(prefix: string, count: number, last: string): Record<string, unknown>[] {
  const end = Date.parse(last);
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(end - (count - 1 - i) * 86_400_000).toISOString();
    return { id: `${prefix}-${i + 1}`, type: 'user_flow_step_completed', created_at: at, updated_at: at };
  });
}
