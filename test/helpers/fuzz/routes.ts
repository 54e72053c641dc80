import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { lobCheck } from '../../checks/check-factory.js';
import { minimalTemplate } from '../../pdf/fixtures/templates.js';
import { LOAN_TYPE, VALID_LOAN } from '../../records/fixtures.js';
import { TEST_ADMIN_TOKEN, TEST_JWT_SECRET, type TestApp } from '../test-app.js';
import { fuzzAuthorization, fuzzBody, fuzzContentType, fuzzExtraHeaders, fuzzQuery, headerText, strangeSegment, type JsonValue } from './arbitraries.js';

export const COMPANY = 'acme';
export const OTHER_COMPANY = 'globex';
/** Operator routes that change a company's check provider use this company, never COMPANY. */
const PROVIDER_COMPANY = 'lob-fuzz';

/** What the catalogue's valid requests point at, made by seedFuzzFixture. */
export interface FuzzFixture {
  readonly recordId: string;
  readonly otherRecordId: string;
  readonly otherCompanyRecordId: string;
  readonly tokenKey: string;
  readonly recordToken: string;
  readonly fileId: string;
  readonly userToken: string;
  readonly otherCompanyToken: string;
  readonly webhookId: string;
  readonly deliveryId: string;
}

async function expectOk(response: LightMyRequestResponse, what: string): Promise<any> {
  assert.ok(response.statusCode >= 200 && response.statusCode < 300, `${what}: ${response.statusCode} ${response.body}`);
  return response.body === '' ? undefined : response.json();
}

/** A record type, records of two companies, a record token, a template, a PDF, checks and events. */
export async function seedFuzzFixture(t: TestApp): Promise<FuzzFixture> {
  const admin = (method: 'POST' | 'PUT', url: string, payload: unknown, contentType = 'application/json') =>
    t.admin({ method, url, headers: { 'content-type': contentType }, payload: JSON.stringify(payload) });
  await expectOk(await admin('PUT', `/admin/v1/companies/${COMPANY}/record-types/loan`, LOAN_TYPE), 'record type');
  // No delivery worker runs in the fuzz app: the webhook's deliveries stay pending.
  const webhook = await expectOk(
    await t.as(COMPANY, { method: 'POST', url: '/v1/webhooks', payload: { url: 'http://127.0.0.1:9/fuzz', events: ['*'] } }),
    'webhook',
  );
  const create = async () => expectOk(await t.as(COMPANY, { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 'record');
  const record = await create();
  const other = await create();
  await expectOk(
    await admin('POST', `/admin/v1/companies/${OTHER_COMPANY}/records`, [{ id: 'globex-record', record_type: 'uccfiling', status: 'filed' }]),
    'import',
  );
  const minted = await expectOk(
    await t.as(COMPANY, { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: { expires_in: 86_400 } }),
    'record token',
  );
  await expectOk(await admin('PUT', `/admin/v1/companies/${COMPANY}/templates/invoice`, minimalTemplate()), 'template');
  const step = await expectOk(
    await t.as(COMPANY, {
      method: 'PUT',
      url: `/v1/records/${record.id}/steps`,
      payload: { type: 'pdf_create', inputs: { pdf_filename: 'fuzz', template_id: 'invoice' } },
    }),
    'pdf step',
  );
  await expectOk(await admin('POST', `/admin/v1/companies/${COMPANY}/checks`, [lobCheck({ id: 'chk_fuzz0001' })]), 'checks');
  await expectOk(await admin('POST', `/admin/v1/companies/${COMPANY}/events`, sampleEvents()), 'events');
  const deliveries = await expectOk(await t.as(COMPANY, { method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries` }), 'deliveries');
  return {
    webhookId: webhook.id,
    deliveryId: deliveries.results[0].id,
    recordId: record.id,
    otherRecordId: other.id,
    otherCompanyRecordId: 'globex-record',
    tokenKey: minted.key,
    recordToken: minted.token,
    fileId: step.details.file_id,
    userToken: await t.userToken(COMPANY, 'fuzz-user'),
    otherCompanyToken: await t.userToken(OTHER_COMPANY, 'fuzz-user'),
  };
}

function sampleEvents(): JsonValue[] {
  return [
    { type: 'user_flow_session_started', flow_key: 'onboarding', flow_session: 1, step_key: 'intro', user_id: 'u-1' },
    { type: 'step_completed', flow_key: 'onboarding', flow_session: 1, step_key: 'review', like_value: 0.5, version_object: { v: 1 } },
  ];
}

/** One operation of the API, with what a valid request to it looks like. */
export interface FuzzRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** As in the OpenAPI document: `/v1/records/{record}`. */
  readonly path: string;
  readonly api: 'public' | 'operator';
  /** Valid values of each path parameter. */
  readonly params: Readonly<Record<string, readonly string[]>>;
  /** A valid query string (without `?`). */
  readonly query?: string;
  /** Values that make sense for this route's query parameters. */
  readonly queryValues?: readonly string[];
  /** A valid body. */
  readonly body?: JsonValue;
  /** The route also reads NDJSON. */
  readonly ndjson?: boolean;
}

export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** Every public and operator operation, with valid values from the fixture. */
export function fuzzRoutes(f: FuzzFixture): FuzzRoute[] {
  const record = [f.recordId, f.otherRecordId, f.otherCompanyRecordId];
  const companies = [COMPANY, OTHER_COMPANY];
  const templateIds = ['invoice', 'scratch'];
  const typeIds = ['loan', 'scratch'];
  const check = lobCheck();
  delete check.check_number;
  return [
    {
      method: 'GET',
      path: '/v1/events',
      api: 'public',
      params: {},
      query: 'limit=5&order_by=-created_at&flow_key__contains=board',
      queryValues: ['onboarding', 'board', 'intro', 'u-1', 'step_completed'],
    },
    { method: 'GET', path: '/v1/records', api: 'public', params: {}, query: 'limit=5&record_type=custom', queryValues: record },
    { method: 'POST', path: '/v1/records/{typeId}', api: 'public', params: { typeId: ['loan'] }, body: VALID_LOAN },
    { method: 'GET', path: '/v1/records/{record}', api: 'public', params: { record } },
    { method: 'PATCH', path: '/v1/records/{record}', api: 'public', params: { record }, body: { f_amount: 7, status: 'in_review' } },
    { method: 'POST', path: '/v1/records/{record}/tokens', api: 'public', params: { record }, body: { expires_in: 600 } },
    { method: 'GET', path: '/v1/records/{record}/tokens', api: 'public', params: { record } },
    { method: 'POST', path: '/v1/records/{record}/actions', api: 'public', params: { record }, body: { expires: 600 } },
    { method: 'DELETE', path: '/v1/records/{record}/tokens/{key}', api: 'public', params: { record, key: ['no-such-key', f.tokenKey] } },
    {
      method: 'GET',
      path: '/v1/checks',
      api: 'public',
      params: {},
      query: 'limit=5&sort_by=-send_date&date_created__gte=2020-01-01',
      queryValues: ['chk_fuzz0001'],
    },
    {
      method: 'PUT',
      path: '/v1/records/{record}/steps',
      api: 'public',
      params: { record },
      body: { type: 'pdf_create', inputs: { pdf_filename: 'fuzzed', template_id: 'invoice' } },
    },
    { method: 'GET', path: '/v1/records/{record}/files/{fileId}', api: 'public', params: { record, fileId: [f.fileId] } },
    { method: 'GET', path: '/v1/records/{record}/files', api: 'public', params: { record } },
    { method: 'GET', path: '/v1/record-types', api: 'public', params: {} },
    { method: 'GET', path: '/v1/event-types', api: 'public', params: {} },
    { method: 'GET', path: '/v1/templates', api: 'public', params: {} },
    { method: 'GET', path: '/v1/record-types/{typeId}', api: 'public', params: { typeId: typeIds } },
    { method: 'GET', path: '/v1/events/changes', api: 'public', params: {}, query: 'limit=5&type=step_completed', queryValues: ['step_completed', 'AQ', '0'] },
    {
      method: 'POST',
      path: '/v1/webhooks',
      api: 'public',
      params: {},
      body: { url: 'http://127.0.0.1:9/fuzzed', events: ['record.created'], description: 'fuzz' },
    },
    { method: 'GET', path: '/v1/webhooks', api: 'public', params: {} },
    { method: 'GET', path: '/v1/webhooks/{id}', api: 'public', params: { id: [f.webhookId, 'no-such-webhook'] } },
    {
      method: 'PATCH',
      path: '/v1/webhooks/{id}',
      api: 'public',
      params: { id: [f.webhookId, 'no-such-webhook'] },
      body: { description: 'patched', enabled: true },
    },
    {
      method: 'POST',
      path: '/v1/webhooks/{id}/secret',
      api: 'public',
      params: { id: [f.webhookId, 'no-such-webhook'] },
      body: { overlap_seconds: 60 },
    },
    { method: 'DELETE', path: '/v1/webhooks/{id}', api: 'public', params: { id: ['no-such-webhook'] } },
    { method: 'GET', path: '/v1/webhooks/{id}/deliveries', api: 'public', params: { id: [f.webhookId] } },
    {
      method: 'POST',
      path: '/v1/webhooks/{id}/deliveries/{delivery}/redeliver',
      api: 'public',
      params: { id: [f.webhookId], delivery: [f.deliveryId, 'msg_unknown'] },
    },
    { method: 'POST', path: '/admin/v1/tokens', api: 'operator', params: {}, body: { company_id: COMPANY, user_id: 'u-9', expires_in: 60 } },
    { method: 'POST', path: '/admin/v1/companies/{company}/events', api: 'operator', params: { company: companies }, body: sampleEvents(), ndjson: true },
    { method: 'POST', path: '/admin/v1/companies/{company}/checks', api: 'operator', params: { company: companies }, body: [check as JsonValue] },
    { method: 'GET', path: '/admin/v1/companies/{company}/providers', api: 'operator', params: { company: companies } },
    {
      method: 'PUT',
      path: '/admin/v1/companies/{company}/providers/lob',
      api: 'operator',
      params: { company: [PROVIDER_COMPANY] },
      body: { api_key: 'test_0dc8d51e0acffcb1880e0f19c79b2f5b0cc' },
    },
    { method: 'DELETE', path: '/admin/v1/companies/{company}/providers/lob', api: 'operator', params: { company: [PROVIDER_COMPANY] } },
    {
      method: 'PUT',
      path: '/admin/v1/companies/{company}/templates/{templateId}',
      api: 'operator',
      params: { company: companies, templateId: templateIds },
      body: minimalTemplate() as JsonValue,
    },
    { method: 'GET', path: '/admin/v1/companies/{company}/templates/{templateId}', api: 'operator', params: { company: companies, templateId: templateIds } },
    {
      method: 'DELETE',
      path: '/admin/v1/companies/{company}/templates/{templateId}',
      api: 'operator',
      params: { company: companies, templateId: ['scratch'] },
    },
    { method: 'GET', path: '/admin/v1/companies/{company}/templates', api: 'operator', params: { company: companies } },
    {
      method: 'PUT',
      path: '/admin/v1/companies/{company}/record-types/{typeId}',
      api: 'operator',
      params: { company: companies, typeId: ['scratch'] },
      body: LOAN_TYPE as JsonValue,
    },
    { method: 'GET', path: '/admin/v1/companies/{company}/record-types/{typeId}', api: 'operator', params: { company: companies, typeId: typeIds } },
    {
      method: 'GET',
      path: '/admin/v1/companies/{company}/record-types/{typeId}/records',
      api: 'operator',
      params: { company: companies, typeId: typeIds },
      query: 'limit=5',
      queryValues: ['1', '100'],
    },
    { method: 'DELETE', path: '/admin/v1/companies/{company}/record-types/{typeId}', api: 'operator', params: { company: companies, typeId: ['scratch'] } },
    { method: 'GET', path: '/admin/v1/companies/{company}/record-types', api: 'operator', params: { company: companies } },
    { method: 'GET', path: '/admin/v1/companies/{company}/webhooks', api: 'operator', params: { company: companies } },
    {
      method: 'GET',
      path: '/admin/v1/companies/{company}/webhook-deliveries',
      api: 'operator',
      params: { company: companies },
      query: 'status=failed',
      queryValues: ['failed', 'pending', 'delivered'],
    },
    {
      method: 'POST',
      path: '/admin/v1/companies/{company}/records',
      api: 'operator',
      params: { company: companies },
      body: [{ record_type: 'uccfiling', status: 'filed' }],
      ndjson: true,
    },
    // A person no fixture event names, and a company of its own to offboard: the other routes' data stays.
    { method: 'POST', path: '/admin/v1/companies/{company}/erasures', api: 'operator', params: { company: companies }, body: { user_id: 'fuzz-nobody' } },
    { method: 'GET', path: '/admin/v1/companies/{company}/erasures', api: 'operator', params: { company: companies } },
    { method: 'GET', path: '/admin/v1/companies/{company}/erasures/{id}', api: 'operator', params: { company: companies, id: ['no-such-erasure'] } },
    { method: 'POST', path: '/admin/v1/companies/{company}/offboarding', api: 'operator', params: { company: ['fuzz-leaving'] } },
    { method: 'GET', path: '/admin/v1/companies/{company}/offboarding', api: 'operator', params: { company: ['fuzz-leaving', 'never-offboarded'] } },
    // Deletes only what no other route reads: an unknown record, another company's (a 404 for this one).
    { method: 'DELETE', path: '/v1/records/{record}', api: 'public', params: { record: ['no-such-record', f.otherCompanyRecordId] } },
    { method: 'DELETE', path: '/admin/v1/companies/{company}/records/{record}', api: 'operator', params: { company: companies, record: ['no-such-record'] } },
    {
      method: 'PUT',
      path: '/admin/v1/companies/{company}/retention',
      api: 'operator',
      params: { company: ['fuzz-retention'] },
      body: { retention_days: 3650 },
    },
    { method: 'GET', path: '/admin/v1/companies/{company}/retention', api: 'operator', params: { company: ['fuzz-retention', ...companies] } },
    { method: 'DELETE', path: '/admin/v1/companies/{company}/retention', api: 'operator', params: { company: ['fuzz-retention'] } },
    {
      method: 'PATCH',
      path: '/admin/v1/companies/{company}/profile',
      api: 'operator',
      params: { company: ['fuzz-profile'] },
      body: { display_name: 'Fuzz Finance', support_email: 'help@fuzz.example' },
    },
    { method: 'GET', path: '/admin/v1/companies/{company}/profile', api: 'operator', params: { company: ['fuzz-profile', ...companies] } },
    { method: 'GET', path: '/admin/v1/companies/{company}/export', api: 'operator', params: { company: companies } },
  ];
}

type InjectMethod = NonNullable<InjectOptions['method']>;

/** A request as sent with `inject`. */
export interface FuzzRequest {
  readonly method: InjectMethod;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

const OTHER_METHODS: InjectMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

async function unsignedToken(claims: Record<string, unknown>): Promise<string> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}

/** Authorization values for a route: mostly the right credential, then everything else. */
export async function authorizationCandidates(route: FuzzRoute, f: FuzzFixture): Promise<{ valid: string; others: string[] }> {
  const secret = new TextEncoder().encode(TEST_JWT_SECRET);
  const sign = (claims: Record<string, unknown>, expiresIn: string | number = '1h') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(expiresIn).sign(secret);
  const valid = route.api === 'operator' ? `Bearer ${TEST_ADMIN_TOKEN}` : `Bearer ${f.userToken}`;
  const others = [
    '',
    'Bearer',
    'Bearer ',
    `Bearer  ${f.userToken}`,
    `bearer ${f.userToken}`,
    `Bearer ${f.userToken} extra`,
    `Bearer ${f.userToken},Bearer ${f.otherCompanyToken}`,
    `Basic ${Buffer.from(`${COMPANY}:secret`).toString('base64')}`,
    f.userToken,
    `Bearer ${f.recordToken}`,
    `Bearer ${f.otherCompanyToken}`,
    `Bearer ${TEST_ADMIN_TOKEN}`,
    `Bearer ${f.userToken}`,
    `Bearer ${await unsignedToken({ company_id: COMPANY, sub: 'u' })}`,
    `Bearer ${await sign({ company_id: COMPANY, sub: 'u' }, Math.floor(Date.now() / 1000) - 60)}`,
    `Bearer ${await sign({ sub: 'u' })}`,
    `Bearer ${await sign({ company_id: 42, sub: 'u' })}`,
    `Bearer ${await sign({ company_id: { $ne: null }, sub: 'u' })}`,
    `Bearer ${await sign({ company_id: '', sub: 'u' })}`,
    `Bearer ${await sign({ company_id: COMPANY, sub: 'u', type: 'record', record_id: f.recordId, jti: 'forged' })}`,
    `Bearer ${await new SignJWT({ company_id: COMPANY }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-secret-0123456789abcdef0123'))}`,
    `Bearer ${f.userToken.slice(0, -3)}`,
    `Bearer ${f.userToken}.`,
    'Bearer e30.e30.',
    'Bearer a.b.c',
    'Bearer ....',
  ];
  return { valid, others };
}

/**
 * A request to one route: each part (method, path, query, headers, body) is either the valid
 * one or a hostile one, so the shrunk counterexample changes as little as possible.
 */
export function fuzzRequest(route: FuzzRoute, knownQuery: readonly string[], auth: { valid: string; others: string[] }): fc.Arbitrary<FuzzRequest> {
  const paramNames = Object.keys(route.params);
  const pathArb = fc
    .tuple(
      ...paramNames.map((name) =>
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...route.params[name]!.map(encodeURIComponent)) }, { weight: 2, arbitrary: strangeSegment }),
      ),
    )
    .map((values) => paramNames.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), route.path));
  const method = fc.oneof({ weight: 9, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) });
  const query = fc.oneof({ weight: 1, arbitrary: fc.constant(route.query ?? '') }, { weight: 3, arbitrary: fuzzQuery(knownQuery, route.queryValues) });
  const authorization = fc.oneof({ weight: 3, arbitrary: fc.constant(auth.valid) }, { weight: 1, arbitrary: fuzzAuthorization(auth.others) });
  const defaultType = route.body === undefined ? undefined : 'application/json';
  const contentType = fc.oneof(
    { weight: 4, arbitrary: fc.constant(defaultType) },
    { weight: 1, arbitrary: fuzzContentType },
    ...(route.ndjson ? [{ weight: 1, arbitrary: fc.constant('application/x-ndjson') }] : []),
  );
  const validBody = route.body === undefined ? undefined : JSON.stringify(route.body);
  // A route without a body mostly gets none, so that the rest of the request is what is tested.
  const body = fc.oneof(
    { weight: route.body === undefined ? 3 : 1, arbitrary: fc.constant(validBody) },
    { weight: route.body === undefined ? 1 : 3, arbitrary: fuzzBody(route.body, route.ndjson === true) },
  );
  const extra = fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fuzzExtraHeaders });
  const contentLength = fc.oneof(
    { weight: 15, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('0', '-1', '1', 'abc', '99999999999'), headerText(10)) },
  );
  return fc
    .record({ method, path: pathArb, query, authorization, contentType, body, extra, contentLength })
    .map(({ method: verb, path, query: search, authorization: auth, contentType: type, body: payload, extra: headers, contentLength: length }) => {
      const all: Record<string, string> = { ...headers };
      if (auth !== '') all.authorization = auth;
      if (type !== undefined) all['content-type'] = type;
      if (length !== undefined) all['content-length'] = length;
      return { method: verb, url: search === '' ? path : `${path}?${search}`, headers: all, ...(payload === undefined ? {} : { payload }) };
    });
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The contract for every answer: never a 5xx; a refusal is JSON `{message, code}` with a snake_case code. */
export function checkAnswer(request: FuzzRequest, response: LightMyRequestResponse): void {
  const shown = () => `${request.method} ${request.url.slice(0, 300)} -> ${response.statusCode} ${response.body.slice(0, 500)}`;
  assert.ok(response.statusCode < 500, `5xx: ${shown()}`);
  if (response.statusCode < 300 || request.method === 'HEAD') return;
  assert.match(String(response.headers['content-type']), /^application\/json/, `not JSON: ${shown()}`);
  let body: unknown;
  assert.doesNotThrow(() => {
    body = JSON.parse(response.body);
  }, `body is not JSON: ${shown()}`);
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), `body is not an object: ${shown()}`);
  const { message, code } = body as { message?: unknown; code?: unknown };
  assert.equal(typeof message, 'string', `no string message: ${shown()}`);
  assert.ok((message as string).length > 0, `empty message: ${shown()}`);
  assert.ok(typeof code === 'string' && SNAKE_CASE.test(code), `code is not snake_case: ${shown()}`);
}

/** Route names only: the catalogue with placeholder values, for declaring one test per route. */
export const FUZZ_ROUTE_KEYS: readonly string[] = fuzzRoutes({
  recordId: 'r',
  otherRecordId: 'r',
  otherCompanyRecordId: 'r',
  tokenKey: 'k',
  recordToken: 't',
  fileId: 'f',
  userToken: 'u',
  otherCompanyToken: 'o',
  webhookId: 'w',
  deliveryId: 'd',
}).map(routeKey);

/**
 * Operations the generated requests leave out, each with where it is tested instead: a valid
 * request to the live stream never ends, which a generated run cannot wait for.
 */
export const UNFUZZED_ROUTE_KEYS: readonly string[] = [
  'GET /v1/events/stream', // test/events/stream.test.ts; its refusals in test/hardening/cross-company.test.ts
];

/** The operations of an OpenAPI document under /v1 and /admin/v1, as `METHOD /path`. */
export function openApiOperations(document: { paths: Record<string, Record<string, unknown>> }, prefix = /^\/(v1|admin\/v1)\//): string[] {
  return Object.entries(document.paths)
    .filter(([path]) => prefix.test(path))
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

/** The query parameter names an operation declares in the OpenAPI document. */
export function declaredQueryParameters(document: any, route: { method: string; path: string }): string[] {
  const operation = document.paths[route.path]?.[route.method.toLowerCase()];
  return (operation?.parameters ?? []).filter((parameter: any) => parameter.in === 'query').map((parameter: any) => String(parameter.name));
}
