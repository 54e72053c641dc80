import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../helpers/test-app.js';

export type EventInput = Record<string, unknown>;

/** Every field of an Event, in the order of the spec's table. */
export const EVENT_FIELDS = [
  'id',
  'company_id',
  'connection_id',
  'connection_key',
  'created_at',
  'excluded',
  'flow_id',
  'flow_key',
  'flow_session',
  'like_value',
  'seconds_active',
  'seconds_running',
  'selected_decision',
  'step_key',
  'text',
  'type',
  'updated_at',
  'user_id',
  'version_id',
  'version_key',
] as const;

const USERS = {
  ada: '0190a000-0000-7000-8000-00000000000a',
  bob: '0190a000-0000-7000-8000-00000000000b',
  cy: '0190a000-0000-7000-8000-00000000000c',
};
export { USERS };

let sequence = 0;

/** A complete event with every field set, overridable; ids and times follow creation order. */
export function anEvent(overrides: EventInput = {}): EventInput {
  sequence++;
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString();
  return {
    id: `evt-${String(sequence).padStart(4, '0')}`,
    connection_id: 'conn-1',
    connection_key: 'salesforce',
    created_at: createdAt,
    excluded: false,
    flow_id: 'flow-1',
    flow_key: 'onboarding',
    flow_session: 1,
    like_value: null,
    seconds_active: 1.5,
    seconds_running: 10,
    selected_decision: null,
    step_key: 'collect_documents',
    text: null,
    type: 'user_flow_step_completed',
    updated_at: createdAt,
    user_id: USERS.ada,
    version_id: 'ver-1',
    version_key: 'v1',
    ...overrides,
  };
}

/**
 * A small company history that exercises every filter: keys with shared substrings and upper
 * case, numbers that sort differently as text, non-ASCII and astral characters (code point
 * order differs from UTF-16 order), LIKE metacharacters, nulls, and two events with the same
 * created_at.
 */
export function filterDataset(): EventInput[] {
  const events = [
    anEvent({ id: 'e01', type: 'user_flow_session_started', flow_key: 'onboarding', flow_session: 1, step_key: null, like_value: 1 }),
    anEvent({ id: 'e02', flow_key: 'onboarding', flow_session: 1, step_key: 'collect_documents', seconds_active: 12.25 }),
    anEvent({
      id: 'e03',
      type: 'user_flow_decision_selected',
      flow_key: 'onboarding',
      flow_session: 1,
      step_key: 'manager_review',
      selected_decision: 'Approve',
      text: 'looks good',
      like_value: -2,
    }),
    anEvent({
      id: 'e04',
      type: 'user_flow_session_started',
      flow_key: 'Onboarding-EU',
      flow_session: 2,
      step_key: null,
      user_id: USERS.bob,
      connection_key: 'hubspot',
      version_key: 'v2',
      excluded: true,
    }),
    anEvent({ id: 'e05', flow_key: 'Onboarding-EU', flow_session: 2, step_key: 'collect_documents', user_id: USERS.bob, version_key: 'v2' }),
    anEvent({
      id: 'e06',
      type: 'user_flow_decision_selected',
      flow_key: 'invoice_approval',
      flow_session: 3,
      step_key: 'approve_invoice',
      selected_decision: 'Reject',
      user_id: USERS.bob,
      connection_key: 'netsuite',
      version_key: 'v10',
      like_value: 0.5,
    }),
    anEvent({ id: 'e07', flow_key: 'invoice_approval', flow_session: 10, step_key: 'pay', user_id: USERS.cy, version_key: 'v10' }),
    anEvent({
      id: 'e08',
      type: 'note',
      connection_id: null,
      connection_key: null,
      flow_id: null,
      flow_key: null,
      flow_session: null,
      seconds_active: null,
      seconds_running: null,
      step_key: null,
      user_id: null,
      version_id: null,
      version_key: null,
    }),
    anEvent({ id: 'e09', flow_key: 'émigré', flow_session: 11, step_key: 'Ωmega', user_id: USERS.cy }),
    anEvent({ id: 'e10', flow_key: '𝔘nicode', flow_session: 12, step_key: 'ﬀ-step' }),
    anEvent({ id: 'e11', flow_key: 'ﬀ-flow', flow_session: 4, connection_key: 'a%b_c"d\\e', version_key: 'v1' }),
    anEvent({ id: 'e12', flow_key: 'ZZZ', flow_session: 100, step_key: 'zz', version_key: 'V1', like_value: 3 }),
  ];
  // Times follow the list (e09 and e10 share theirs), whatever other tests made before.
  return events.map((event, i) => {
    const second = i === 9 ? 9 : i + 1;
    const createdAt = new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
    return { ...event, created_at: createdAt, updated_at: createdAt };
  });
}

export async function ingest(
  t: TestApp,
  company: string,
  events: readonly EventInput[],
  format: 'array' | 'ndjson' = 'array',
): Promise<LightMyRequestResponse> {
  return t.admin({
    method: 'POST',
    url: `/admin/v1/companies/${company}/events`,
    headers: { 'content-type': format === 'array' ? 'application/json' : 'application/x-ndjson' },
    payload: format === 'array' ? JSON.stringify(events) : events.map((event) => JSON.stringify(event)).join('\n'),
  });
}

export async function ingestOk(t: TestApp, company: string, events: readonly EventInput[]): Promise<void> {
  const response = await ingest(t, company, events);
  assert.equal(response.statusCode, 200, response.body);
  assert.deepEqual(response.json(), { ingested: events.length });
}

export async function listEvents(t: TestApp, company: string, query = ''): Promise<LightMyRequestResponse> {
  return t.as(company, { method: 'GET', url: `/v1/events${query ? `?${query}` : ''}` });
}

/** The ids a successful list answers, after checking the response's shape. */
export async function listIds(t: TestApp, company: string, query = ''): Promise<string[]> {
  const response = await listEvents(t, company, query);
  assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
  const body = response.json() as { count: number; results: { id: string }[] };
  assert.equal(body.count, body.results.length);
  return body.results.map((event) => event.id);
}

export function expectInvalidQuery(response: LightMyRequestResponse, params: string[], messageIncludes?: string): void {
  assert.equal(response.statusCode, 400, response.body);
  const body = response.json();
  assert.equal(body.code, 'invalid_query');
  assert.equal(typeof body.message, 'string');
  assert.deepEqual([...body.invalid_params].sort(), [...params].sort(), response.body);
  if (messageIncludes) assert.ok(body.message.includes(messageIncludes), body.message);
}

/** Compares strings by Unicode code point (UTF-8 byte order), as the service does. */
export function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
