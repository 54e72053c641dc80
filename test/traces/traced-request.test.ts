import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { startServer, type LogLine, type ServerProcess } from '../hardening/helpers/server-process.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const PROBE = fileURLToPath(new URL('../helpers/loaded-packages-probe.mjs', import.meta.url));
const OBSERVABILITY_PACKAGE = /^(@opentelemetry\/|@fastify\/otel$|import-in-the-middle$)/;
const ROUTE = '/admin/v1/companies/:company/webhooks';
const SPAN_KIND = { server: 2, client: 3 } as const;

/** Whether `span` is `ancestorId` or below it, following parent ids among `spans`. */
function descendsFrom(span: ReceivedSpan, ancestorId: string, spans: readonly ReceivedSpan[]): boolean {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  for (let current: ReceivedSpan | undefined = span; current; current = byId.get(current.parentSpanId ?? '')) {
    if (current.spanId === ancestorId || current.parentSpanId === ancestorId) return true;
  }
  return false;
}

/** Starts `wrs serve` with the packages probe and waits until it listens. */
async function serveWith(env: Record<string, string>, packagesFile: string): Promise<ServerProcess> {
  const server = await startServer({ ...env, NODE_OPTIONS: `--import ${PROBE}`, WRS_TEST_LOADED_PACKAGES_FILE: packagesFile });
  await server.waitForLog((line) => String(line.msg).startsWith('Server listening'), 'the server to listen');
  return server;
}

/** Asks for the webhooks of a company as a load balancer that started the trace would; answers the status. */
async function listWebhooks(server: ServerProcess, traceparent: string): Promise<number> {
  const response = await fetch(`${server.url}/admin/v1/companies/acme/webhooks`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, traceparent },
  });
  await response.arrayBuffer();
  return response.status;
}

/** SIGTERM, as an orchestrator stops a replica, and the exit status. */
async function stop(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGTERM');
  return (await server.exited).code;
}

const requestLine = (line: LogLine) => line.msg === 'request completed';

describeEachDatabase('a request traced from the load balancer to its SQL', (kind) => {
  const traceId = randomBytes(16).toString('hex');
  const parentSpanId = randomBytes(8).toString('hex');
  let receiver: OtlpReceiver;
  let database: TestDatabase;
  let server: ServerProcess;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-traces-'));
    receiver = await startOtlpReceiver();
    database = await createTestDatabase(kind);
    server = await serveWith(
      {
        WRS_DATABASE_URL: database.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        // Nothing leaves on a timer during the test: the spans that arrive were sent by the shutdown.
        OTEL_BSP_SCHEDULE_DELAY: '600000',
      },
      join(dir, 'packages.json'),
    );
  });
  after(async () => {
    await server.dispose();
    await receiver.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends, on SIGTERM, the server, route and SQL spans of the request under the caller's span, and logs its trace id", async () => {
    assert.equal(await listWebhooks(server, `00-${traceId}-${parentSpanId}-01`), 200);
    const line = await server.waitForLog(requestLine, 'the request line');
    assert.equal(line.trace_id, traceId, 'the request line carries the trace id');
    assert.match(String(line.span_id), /^[0-9a-f]{16}$/);
    assert.equal(receiver.requests, 0, 'the spans wait in the batch until the shutdown');

    assert.equal(await stop(server), 0);
    const spans = receiver.spans().filter((span) => span.traceId === traceId);

    const httpServer = spans.find((span) => span.kind === SPAN_KIND.server && span.scope === '@opentelemetry/instrumentation-http');
    assert.ok(httpServer, `an HTTP server span; got ${spans.map((span) => span.name).join(', ')}`);
    assert.equal(httpServer.parentSpanId, parentSpanId, "the server span continues the caller's trace");
    assert.equal(httpServer.serviceName, 'wrs');
    assert.equal(httpServer.name, `GET ${ROUTE}`, 'named by the route template, never by the raw path');

    const route = spans.find((span) => span.scope === '@fastify/otel' && span.attributes['http.route'] === ROUTE);
    assert.ok(route, 'a Fastify span named by the route template');
    assert.ok(descendsFrom(route, httpServer.spanId, spans));

    const queries = spans.filter((span) => span.kind === SPAN_KIND.client && typeof span.attributes['db.query.text'] === 'string');
    const webhookQuery = queries.find((span) => /"webhooks"|\bwebhooks\b/.test(String(span.attributes['db.query.text'])));
    assert.ok(webhookQuery, `the SQL reading the webhooks; got ${queries.map((span) => span.attributes['db.query.text']).join(' | ')}`);
    assert.equal(webhookQuery.attributes['db.system.name'], kind === 'postgres' ? 'postgresql' : 'sqlite');
    assert.match(String(webhookQuery.attributes['db.query.text']), /^select /i);
    for (const query of queries) assert.ok(descendsFrom(query, route.spanId, spans), `${query.name} under the route span`);

    const packages = JSON.parse(readFileSync(join(dir, 'packages.json'), 'utf8')) as string[];
    assert.ok(packages.includes('@opentelemetry/sdk-node'), 'the probe sees the SDK when it is loaded');
  });
});

describe('a request with tracing off', () => {
  let receiver: OtlpReceiver;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-traces-off-'));
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, Record<string, string>][] = [
    ['with no OTEL variable', {}],
    ['with OTEL_SDK_DISABLED=true beside an endpoint', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: '' }],
  ];
  for (const [title, env] of cases) {
    it(`${title}: no OpenTelemetry package is loaded, nothing is sent, and logs carry no trace id`, async () => {
      const packagesFile = join(dir, `${cases.findIndex(([each]) => each === title)}.json`);
      const settings =
        'OTEL_EXPORTER_OTLP_ENDPOINT' in env ? { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' } : env;
      const server = await serveWith(settings, packagesFile);
      try {
        assert.equal(await listWebhooks(server, `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`), 200);
        const line = await server.waitForLog(requestLine, 'the request line');
        assert.equal(line.trace_id, undefined);
        assert.equal(await stop(server), 0);
        // prom-client requires the API package (a no-op until an SDK registers); nothing else may load.
        const loaded = (JSON.parse(readFileSync(packagesFile, 'utf8')) as string[]).filter(
          (name) => OBSERVABILITY_PACKAGE.test(name) && name !== '@opentelemetry/api',
        );
        assert.deepEqual(loaded, [], 'neither the SDK nor an instrumentation is loaded');
        assert.equal(receiver.requests, 0);
      } finally {
        await server.dispose();
      }
    });
  }
});
