// Every operation of the served OpenAPI document carries what a generated client and a docs page
// need: a unique operationId, one declared tag, a summary, and an example of each 2xx body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface MediaType {
  schema?: { format?: string };
  example?: unknown;
  examples?: Record<string, unknown>;
}
interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}
interface Document {
  servers?: { url: string }[];
  info: { license?: { name: string } };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

async function servedDocument(env: Record<string, string> = {}): Promise<Document> {
  const t = await createTestApp('sqlite', { env });
  try {
    return (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
  } finally {
    await t.close();
  }
}

function operationsOf(document: Document): { name: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );
}

/** A 2xx body with no example (the PDF download's included: its example is a whole PDF). */
function bodiesWithoutExample(operation: OperationObject): string[] {
  return Object.entries(operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([status, response]) =>
      Object.entries(response.content ?? {})
        .filter(([, media]) => media.example === undefined && Object.keys(media.examples ?? {}).length === 0)
        .map(([mediaType]) => `${status} ${mediaType}`),
    );
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Document;
  before(async () => {
    t = await createTestApp('sqlite');
    document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
  });
  after(() => t.close());

  it('gives every operation a unique lowerCamel operationId', () => {
    const operations = operationsOf(document);
    const missing = operations.filter((o) => !/^[a-z][A-Za-z0-9]*$/.test(o.operation.operationId ?? '')).map((o) => o.name);
    assert.deepEqual(missing, [], 'operations without a lowerCamel operationId');
    const ids = operations.map((o) => o.operation.operationId);
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    assert.deepEqual(repeated, [], 'operationIds used twice');
  });

  it('gives every operation a summary and exactly one tag, declared with a description at the top', () => {
    const declared = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
    assert.ok(
      [...declared.values()].every((description) => description.length > 0),
      'a tag without a description',
    );
    const wrong = operationsOf(document)
      .filter(({ operation }) => !operation.summary || operation.tags?.length !== 1 || !declared.has(operation.tags[0] ?? ''))
      .map(({ name, operation }) => `${name}: tags ${JSON.stringify(operation.tags)}, summary ${JSON.stringify(operation.summary)}`);
    assert.deepEqual(wrong, []);
  });

  it('gives an example and a description of its own for every 2xx answer', () => {
    const withoutExample = operationsOf(document).flatMap(({ name, operation }) => bodiesWithoutExample(operation).map((body) => `${name} ${body}`));
    assert.deepEqual(withoutExample, [], '2xx bodies without an example');
    const defaultDescriptions = operationsOf(document).flatMap(({ name, operation }) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => status.startsWith('2') && (response.description ?? 'Default Response') === 'Default Response')
        .map(([status]) => `${name} ${status}`),
    );
    assert.deepEqual(defaultDescriptions, [], '2xx answers described only as "Default Response"');
  });

  it('declares the 4xx answers of every operation that takes input (all but the health probes)', () => {
    const without4xx = operationsOf(document)
      .filter(({ operation }) => operation.tags?.[0] !== 'health')
      .filter(({ operation }) => !Object.keys(operation.responses).some((status) => status.startsWith('4')))
      .map(({ name }) => name);
    assert.deepEqual(without4xx, []);
  });

  it('gives the PDF download an application/pdf example that is a whole PDF', () => {
    const media = document.paths['/v1/records/{record}/files/{fileId}']?.get?.responses['200']?.content?.['application/pdf'];
    assert.equal(media?.schema?.format, 'binary');
    const pdf = String(media?.example ?? '');
    assert.match(pdf, /^%PDF-1\.\d\n/);
    assert.match(pdf, /\n%%EOF\n$/);
    const startxref = Number(/startxref\n(\d+)\n/.exec(pdf)?.[1]);
    assert.ok(pdf.startsWith('xref\n', startxref), 'startxref points at the cross-reference table');
    const offsets = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    assert.ok(offsets.length >= 3);
    for (const [index, offset] of offsets.entries()) assert.ok(pdf.startsWith(`${index + 1} 0 obj\n`, offset), `object ${index + 1} at its offset`);
  });

  it('states the MIT license of package.json', () => {
    assert.equal(document.info.license?.name, 'MIT');
  });
});

describe('the servers of the OpenAPI document', () => {
  it('are WRS_PUBLIC_URL when it is set', async () => {
    const document = await servedDocument({ WRS_PUBLIC_URL: 'https://wrs.example.org' });
    assert.deepEqual(
      document.servers?.map((server) => server.url),
      ['https://wrs.example.org'],
    );
  });

  it('keep the path of WRS_PUBLIC_URL (a service behind a prefix), without its trailing slash', async () => {
    const document = await servedDocument({ WRS_PUBLIC_URL: 'https://api.example.org/wrs/' });
    assert.deepEqual(
      document.servers?.map((server) => server.url),
      ['https://api.example.org/wrs'],
    );
  });

  it('are the relative "/" otherwise, so a docs page calls whatever host serves the document', async () => {
    const document = await servedDocument({ WRS_PUBLIC_URL: undefined as unknown as string });
    assert.deepEqual(
      document.servers?.map((server) => server.url),
      ['/'],
    );
  });
});
