import type autocannon from 'autocannon';
import type { LoadedData } from './load-data.js';
import type { LoadOptions } from './load.js';

/** The bench's main scenarios as single requests (the same URLs and headers as bench/lib/scenarios.ts), for bench/side-by-side.ts. */
export interface ScenarioRequest {
  describe: string;
  /** Fewer than the run's connections, where the bench measures the scenario so. */
  connections?: number;
  load(baseUrl: string): Omit<LoadOptions, 'connections' | 'durationSeconds'>;
}

export interface ScenarioInput {
  /** A user token of the large company. */
  token: string;
  loaded: LoadedData;
}

/** Each request names the next of `ids` in turn, so concurrent requests are of different rows. */
function cycling(ids: string[], path: (id: string) => string): autocannon.Request[] {
  let next = 0;
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path(ids[next++ % ids.length]!) }) }];
}

export const SIDE_BY_SIDE_SCENARIOS: Record<string, (input: ScenarioInput) => ScenarioRequest> = {
  'record-get': ({ token, loaded }) => ({
    describe: 'GET /v1/records/{id}',
    load: (base) => ({ url: `${base}/v1/records/${loaded.recordIds[0]}`, headers: { authorization: `Bearer ${token}` } }),
  }),
  'record-get-spread': ({ token, loaded }) => ({
    describe: `GET /v1/records/{id}, ${loaded.spreadRecordIds.length} records in turn`,
    load: (base) => ({
      url: `${base}/v1/records/${loaded.recordIds[0]}`,
      headers: { authorization: `Bearer ${token}` },
      requests: cycling(loaded.spreadRecordIds, (id) => `/v1/records/${id}`),
    }),
  }),
  'events-exact': ({ token, loaded }) => ({
    describe: 'GET /v1/events?limit=100&flow_key=X, Cache-Control: no-cache (built afresh)',
    load: (base) => ({
      url: `${base}/v1/events?limit=100&flow_key=${loaded.flowKey}`,
      headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' },
    }),
  }),
  'events-repeat': ({ token, loaded }) => ({
    describe: 'the same page repeated (page cache)',
    load: (base) => ({ url: `${base}/v1/events?limit=100&flow_key=${loaded.flowKey}`, headers: { authorization: `Bearer ${token}` } }),
  }),
  'events-contains': ({ token }) => ({
    describe: '__contains matching nothing, built afresh',
    load: (base) => ({
      url: `${base}/v1/events?limit=100&flow_key__contains=no-such-flow-zzz`,
      headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' },
    }),
  }),
  'events-deep': ({ token }) => ({
    describe: 'flow_session__gt=10, page 50, built afresh',
    load: (base) => ({
      url: `${base}/v1/events?limit=100&flow_session__gt=10&page=50`,
      headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' },
    }),
  }),
  'events-deep-10': ({ token }) => ({
    describe: 'flow_session__gt=10, page 50, built afresh',
    connections: 10,
    load: (base) => ({
      url: `${base}/v1/events?limit=100&flow_session__gt=10&page=50`,
      headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' },
    }),
  }),
  'events-10000': ({ token }) => ({
    describe: 'GET /v1/events?limit=10000',
    connections: 1,
    load: (base) => ({ url: `${base}/v1/events?limit=10000`, headers: { authorization: `Bearer ${token}` } }),
  }),
  'events-10000-many': ({ token }) => ({
    describe: 'GET /v1/events?limit=10000 on every connection, built afresh (as the peer comparison asks)',
    load: (base) => ({ url: `${base}/v1/events?limit=10000`, headers: { authorization: `Bearer ${token}`, 'cache-control': 'no-cache' } }),
  }),
  checks: ({ token }) => ({
    describe: 'GET /v1/checks?limit=100 (local provider)',
    load: (base) => ({ url: `${base}/v1/checks?limit=100`, headers: { authorization: `Bearer ${token}` } }),
  }),
  'record-create': ({ token, loaded }) => ({
    describe: 'POST /v1/records/{typeId} (both builds write into the one database)',
    load: (base) => ({
      url: `${base}/v1/records/${loaded.recordTypeId}`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ f_title: 'Benchmark item', f_amount: 12.5, f_urgent: false, f_due: '2026-12-01' }),
    }),
  }),
  'record-patch': ({ token, loaded }) => ({
    describe: 'PATCH /v1/records/{id}',
    load: (base) => ({
      url: `${base}/v1/records/${loaded.recordIds[1] ?? loaded.recordIds[0]}`,
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ f_amount: 99.5, status: 'in_review' }),
    }),
  }),
};
