import type { LoadedData } from '../lib/load-data.js';

/** One request: a path on the service and its headers. */
export interface PeerRequest {
  path: string;
  headers: Record<string, string>;
}

/** One of issue 52's five queries, asked of wrs and of Directus so that both answer the same rows. */
export interface PeerQuery {
  name: string;
  wrs: PeerRequest;
  directus: PeerRequest;
  /** The rows answered, in their order, from each service's body: each row's id and a few of its values. */
  wrsRows(body: any): string[];
  directusRows(body: any): string[];
}

export interface PeerQueryInput {
  company: string;
  /** A user token of `company` for wrs; Directus is read with its admin's static token. */
  wrsToken: string;
  directusToken: string;
  loaded: LoadedData;
}

/**
 * Every wrs page is built afresh (`Cache-Control: no-cache`: Directus caches nothing by default),
 * and every Directus query names the company, as wrs scopes each read to the token's company, and
 * the order wrs pages by default: `created_at`, ties by `id`.
 */
export function peerQueries({ company, wrsToken, directusToken, loaded }: PeerQueryInput): PeerQuery[] {
  const wrsHeaders = { authorization: `Bearer ${wrsToken}`, 'cache-control': 'no-cache' };
  const directusHeaders = { authorization: `Bearer ${directusToken}` };
  const items = (extra: Record<string, string>) =>
    `/items/events?${new URLSearchParams({ 'filter[company_id][_eq]': company, ...extra, sort: 'created_at,id' })}`;
  // The time as an instant: each service writes it in its own ISO 8601 form.
  const event = (row: any) => `${row.id} ${Date.parse(row.created_at)} ${row.flow_key} ${row.flow_session}`;
  const page = {
    wrsRows: (body: any) => (body.results as unknown[]).map(event),
    directusRows: (body: any) => (body.data as unknown[]).map(event),
  };
  const record = (row: any) => `${row.id} ${row.status} ${Date.parse(row.created_at)}`;
  const recordId = loaded.recordIds[0]!;
  return [
    {
      name: 'record by id',
      wrs: { path: `/v1/records/${recordId}`, headers: wrsHeaders },
      directus: { path: `/items/records/${recordId}?${new URLSearchParams({ 'filter[company_id][_eq]': company })}`, headers: directusHeaders },
      wrsRows: (body) => [record(body)],
      directusRows: (body) => [record(body.data)],
    },
    {
      name: '`flow_key` exact, 100 rows',
      wrs: { path: `/v1/events?limit=100&flow_key=${loaded.flowKey}`, headers: wrsHeaders },
      directus: { path: items({ 'filter[flow_key][_eq]': loaded.flowKey, limit: '100' }), headers: directusHeaders },
      ...page,
    },
    {
      name: '`__contains`, no match',
      wrs: { path: '/v1/events?limit=100&flow_key__contains=no-such-flow-zzz', headers: wrsHeaders },
      directus: { path: items({ 'filter[flow_key][_contains]': 'no-such-flow-zzz', limit: '100' }), headers: directusHeaders },
      ...page,
    },
    {
      name: '`flow_session__gt`, page 50',
      wrs: { path: '/v1/events?limit=100&flow_session__gt=10&page=50', headers: wrsHeaders },
      directus: { path: items({ 'filter[flow_session][_gt]': '10', limit: '100', page: '50' }), headers: directusHeaders },
      ...page,
    },
    {
      name: '`limit=10000`',
      wrs: { path: '/v1/events?limit=10000', headers: wrsHeaders },
      directus: { path: items({ limit: '10000' }), headers: directusHeaders },
      ...page,
    },
  ];
}
