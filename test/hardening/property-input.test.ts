import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import fc from 'fast-check';
import { describeEachDatabase, type DatabaseKind } from '../helpers/databases.js';
import { changedTables, dataFingerprint, type DataFingerprint } from '../helpers/data-fingerprint.js';
import {
  authorizationCandidates,
  checkAnswer,
  declaredQueryParameters,
  FUZZ_ROUTE_KEYS,
  UNFUZZED_ROUTE_KEYS,
  fuzzRequest,
  fuzzRoutes,
  openApiOperations,
  routeKey,
  seedFuzzFixture,
  type FuzzFixture,
  type FuzzRoute,
} from '../helpers/fuzz/routes.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Generated hostile requests (query strings, JSON bodies, headers, path segments) at every
 * public and operator route. Properties: never a 5xx; every refusal is JSON {message, code}
 * with a snake_case code; a refused request leaves every stored row as it was.
 * `npm run fuzz` runs the same properties longer (WRS_FUZZ_RUNS, WRS_FUZZ_SEED, WRS_FUZZ_ROUTES).
 */
const DEFAULT_RUNS: Record<DatabaseKind, number> = { sqlite: 30, postgres: 8 };
const runsFor = (kind: DatabaseKind) => Number(process.env.WRS_FUZZ_RUNS ?? DEFAULT_RUNS[kind]);
const seed = process.env.WRS_FUZZ_SEED === undefined ? undefined : Number(process.env.WRS_FUZZ_SEED);
const routeFilter = process.env.WRS_FUZZ_ROUTES?.split(',').filter(Boolean);
const selected = (key: string) => !routeFilter || routeFilter.some((part) => key.includes(part));

describeEachDatabase('property: hostile input at every route', (kind) => {
  let t: TestApp;
  let fixture: FuzzFixture;
  let routes: Map<string, FuzzRoute>;
  let openApi: any;
  let stored: DataFingerprint;

  before(async () => {
    // A Lob key set by a generated request must never reach the real Lob.
    // Webhooks may point at this machine (nothing delivers here: no worker runs).
    t = await createTestApp(kind, { env: { LOB_BASE_URL: 'http://127.0.0.1:9/v1', WRS_LOB_MAX_RETRIES: '0', WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    fixture = await seedFuzzFixture(t);
    routes = new Map(fuzzRoutes(fixture).map((route) => [routeKey(route), route]));
    openApi = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    stored = await dataFingerprint(t.ctx.database);
  });
  after(() => t.close());

  it('covers every /v1 and /admin/v1 operation of the OpenAPI document', () => {
    assert.deepEqual([...FUZZ_ROUTE_KEYS, ...UNFUZZED_ROUTE_KEYS].sort(), openApiOperations(openApi));
  });

  for (const key of FUZZ_ROUTE_KEYS.filter(selected)) {
    it(key, { timeout: 600_000 }, async (context) => {
      const route = routes.get(key)!;
      const statuses = new Map<number, number>();
      const arbitrary = fuzzRequest(route, declaredQueryParameters(openApi, route), await authorizationCandidates(route, fixture));
      await fc.assert(
        fc.asyncProperty(arbitrary, async (request) => {
          const response = await t.app.inject(request);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          checkAnswer(request, response);
          // An accepted erasure or offboarding goes on after its answer: compare once it has ended.
          await t.ctx.lifecycleJobs.settled();
          const now = await dataFingerprint(t.ctx.database);
          if (response.statusCode >= 300) {
            assert.deepEqual(
              changedTables(stored, now),
              [],
              `a refused request changed stored data: ${request.method} ${request.url.slice(0, 200)} -> ${response.statusCode} ${response.body.slice(0, 300)}`,
            );
          }
          stored = now;
        }),
        { numRuns: runsFor(kind), includeErrorInReport: true, ...(seed === undefined ? {} : { seed }) },
      );
      context.diagnostic(
        `answers: ${[...statuses]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status} x${count}`)
          .join(', ')}`,
      );
    });
  }
});
