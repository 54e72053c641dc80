// Every operation that takes a credential documents the answers of the credential and of the
// rate limits (401 with WWW-Authenticate, 403 where a record token can be refused, 429 with
// Retry-After and the RateLimit headers), and the service answers them as documented.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase } from '../helpers/databases.js';
import { fillPath } from '../helpers/openapi-operations.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { defineType, expectStatus, VALID_LOAN } from '../records/fixtures.js';

interface ResponseObject {
  description?: string;
  headers?: Record<string, { schema?: { type?: string } }>;
  content?: Record<string, unknown>;
}
interface OperationObject {
  security?: Record<string, string[]>[];
  responses: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, OperationObject>>;
}
interface DocumentedOperation {
  readonly method: string;
  readonly path: string;
  readonly name: string;
  readonly scheme: 'bearer' | 'operator' | null;
  readonly operation: OperationObject;
}

const RATE_LIMIT_HEADERS = ['retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];
const PATH_VALUES = {
  record: 'someone-elses-record',
  typeId: 'another-type',
  fileId: 'file-1',
  key: 'token-key-1',
  id: 'webhook-1',
  delivery: 'delivery-1',
  company: 'acme',
  templateId: 'template-1',
};

async function servedDocument(t: TestApp): Promise<Document> {
  return (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
}

function operationsOf(document: Document): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      assert.ok(schemes.length <= 1, `${method} ${path}: one security scheme at most`);
      return {
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        scheme: (schemes[0] ?? null) as DocumentedOperation['scheme'],
        operation,
      };
    }),
  );
}

describe('the OpenAPI document: the answers of the credential and the rate limits', () => {
  let t: TestApp;
  let operations: DocumentedOperation[];
  before(async () => {
    t = await createTestApp('sqlite');
    operations = operationsOf(await servedDocument(t));
  });
  after(() => t.close());

  it('leaves only the health probes without a credential', () => {
    assert.deepEqual(
      operations
        .filter((o) => o.scheme === null)
        .map((o) => o.name)
        .sort(),
      ['GET /healthz', 'GET /readyz'],
    );
    assert.ok(operations.every((o) => o.scheme !== 'bearer' || o.path.startsWith('/v1/')));
    assert.ok(operations.every((o) => o.scheme !== 'operator' || o.path.startsWith('/admin/v1/')));
  });

  it('documents 401 with WWW-Authenticate and the error body on every operation that takes a credential', () => {
    const wrong = operations
      .filter((o) => o.scheme !== null)
      .filter(({ operation }) => {
        const unauthorized = operation.responses['401'];
        return (
          !unauthorized?.headers?.['www-authenticate'] || !unauthorized.content?.['application/json'] || !/^unauthorized/.test(unauthorized.description ?? '')
        );
      })
      .map((o) => o.name);
    assert.deepEqual(wrong, []);
  });

  it('documents 403 on every /v1 operation (a record token can be refused on each), and on no operator one', () => {
    for (const o of operations.filter((o) => o.scheme === 'bearer')) {
      assert.match(o.operation.responses['403']?.description ?? '', /^forbidden: a record token/, o.name);
    }
    for (const o of operations.filter((o) => o.scheme === 'operator')) assert.equal(o.operation.responses['403'], undefined, o.name);
    const byName = new Map(operations.map((o) => [o.name, o.operation.responses['403']?.description ?? '']));
    assert.match(byName.get('GET /v1/records/{record}')!, /its own record only/);
    assert.match(byName.get('GET /v1/record-types/{typeId}')!, /its own record's type only/);
    assert.match(byName.get('POST /v1/records/{typeId}')!, /may not call this operation/);
  });

  it('documents 429 with Retry-After and the RateLimit headers on every operation the rate limits count', () => {
    const wrong = operations
      .filter((o) => o.scheme !== null)
      .flatMap(({ name, operation }) => {
        const limited = operation.responses['429'];
        if (!limited) return [`${name}: no 429`];
        const missing = RATE_LIMIT_HEADERS.filter((header) => !limited.headers?.[header]);
        return missing.length > 0 ? [`${name}: 429 without ${missing.join(', ')}`] : [];
      });
    assert.deepEqual(wrong, []);
    for (const o of operations.filter((o) => o.scheme === null)) assert.equal(o.operation.responses['429'], undefined, `${o.name} is not counted`);
  });

  it("keeps the description an operation gives its own 429 (the stream's cap of open streams)", () => {
    const stream = operations.find((o) => o.name === 'GET /v1/events/stream')!;
    assert.match(stream.operation.responses['429']?.description ?? '', /the company is over its request rate/);
    assert.ok(stream.operation.responses['429']?.headers?.['retry-after']);
  });
});

describeEachDatabase('the credential and rate-limit answers, as documented', (kind) => {
  let t: TestApp;
  let operations: DocumentedOperation[];
  let recordToken: string;
  let address = 0;
  // Each request from an address of its own: the budget of one request a minute is spent by the first.
  const nextAddress = () => `198.51.100.${++address}`;
  before(async () => {
    t = await createTestApp(kind, { env: { WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1' } });
    await defineType(t, 'acme', 'loan');
    const record = expectStatus(await t.as('acme', { method: 'POST', url: '/v1/records/loan', payload: VALID_LOAN }), 201);
    recordToken = expectStatus(await t.as('acme', { method: 'POST', url: `/v1/records/${record.id}/tokens`, payload: {} }), 201).token;
    operations = operationsOf(await servedDocument(t)).filter((o) => o.scheme !== null);
  });
  after(() => t.close());

  const call = (o: DocumentedOperation, remoteAddress: string, authorization?: string) =>
    t.app.inject({
      method: o.method as 'GET',
      url: fillPath(o.path, PATH_VALUES),
      remoteAddress,
      headers: authorization === undefined ? {} : { authorization },
    });

  it('answers 401 with WWW-Authenticate: Bearer without a credential, then 429 with Retry-After and the RateLimit headers', async () => {
    for (const o of operations) {
      const from = nextAddress();
      const refused = await call(o, from);
      expectStatus(refused, 401, 'unauthorized');
      assert.equal(refused.headers['www-authenticate'], 'Bearer', o.name);
      const limited = await call(o, from, 'Bearer not-a-valid-token');
      expectStatus(limited, 429, 'rate_limited');
      for (const header of RATE_LIMIT_HEADERS) assert.ok(limited.headers[header] !== undefined, `${o.name}: 429 without ${header}`);
      assert.equal(limited.headers['ratelimit-limit'], '1', o.name);
      assert.equal(limited.headers['ratelimit-remaining'], '0', o.name);
    }
  });

  it('answers 403 forbidden on every /v1 operation to a record token of another record', async () => {
    for (const o of operations.filter((o) => o.scheme === 'bearer')) {
      expectStatus(await call(o, nextAddress(), `Bearer ${recordToken}`), 403, 'forbidden');
    }
  });
});
