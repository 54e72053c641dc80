import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Lob's `GET /v1/checks`, written from Lob's published OpenAPI description
 * (lob/lob-openapi: resources/checks, shared/parameters, shared/models/list.yml and error.yml):
 * HTTP Basic auth with the API key as user name; `limit` 1..100 (default 10); one of `before` /
 * `after` (opaque cursors, base64 JSON of a date and an id offset, as in Lob's examples);
 * `date_created[gt|gte|lt|lte]`, `send_date[...]`, `scheduled`, `mail_type`,
 * `sort_by[date_created|send_date]=asc|desc`; newest first by default; the list envelope
 * `{data, object: "list", next_url, previous_url, count}`; errors as
 * `{error: {message, status_code, code}}`; and, per key, the failures a real account meets:
 * 429 with `X-Rate-Limit-*` headers, slow answers, 5xx, a refused key.
 */
/** Lob's check object; tests build them from Lob's published example (lob-published-checks.ts). */
export type FakeCheck = Record<string, unknown> & { id: string; date_created: string; send_date: string; mail_type: string };

export interface AccountBehaviour {
  /** Answer 429 this many times before answering normally (Infinity: always). */
  rateLimited?: number;
  /** Seconds from now to put in X-Rate-Limit-Reset on a 429. */
  resetInSeconds?: number;
  /** Also send Retry-After (seconds) on a 429. */
  retryAfterSeconds?: number;
  /** Answer with this 5xx status this many times before answering normally (Infinity: always). */
  failures?: number;
  failureStatus?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer 403 (a key that may not list checks). */
  forbidden?: boolean;
  /** Answer 200 with a body that is not JSON. */
  garbage?: boolean;
}

export interface RecordedRequest {
  readonly apiKey: string | null;
  readonly path: string;
  readonly query: URLSearchParams;
}

export interface FakeLob {
  /** e.g. http://127.0.0.1:PORT/v1, for LOB_BASE_URL. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  addAccount(apiKey: string, checks: FakeCheck[], behaviour?: AccountBehaviour): void;
  close(): Promise<void>;
}

const KNOWN_PARAMS = new Set([
  'limit',
  'before',
  'after',
  'scheduled',
  'mail_type',
  'sort_by[date_created]',
  'sort_by[send_date]',
  ...['date_created', 'send_date'].flatMap((field) => ['gt', 'gte', 'lt', 'lte'].map((op) => `${field}[${op}]`)),
]);

interface Account {
  checks: FakeCheck[];
  behaviour: AccountBehaviour;
}

export async function startFakeLob(): Promise<FakeLob> {
  const accounts = new Map<string, Account>();
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake-lob');
    const apiKey = basicUser(request);
    requests.push({ apiKey, path: url.pathname, query: url.searchParams });
    const account = apiKey === null ? undefined : accounts.get(apiKey);
    const answer = () => handle(url, apiKey, account, response);
    const delay = account?.behaviour.delayMs ?? 0;
    if (delay > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, delay);
      timers.add(timer);
    } else {
      answer();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    addAccount(apiKey, checks, behaviour = {}) {
      accounts.set(apiKey, { checks, behaviour: { ...behaviour } });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function handle(url: URL, apiKey: string | null, account: Account | undefined, response: ServerResponse): void {
  if (url.pathname !== '/v1/checks') return lobError(response, 404, 'unrecognised_endpoint', 'The requested endpoint does not exist.');
  if (!account) {
    return lobError(response, 401, apiKey ? 'invalid_api_key' : 'unauthorized', 'Your API key is not valid. Please sign up on lob.com to get a valid api key.');
  }
  const behaviour = account.behaviour;
  if (behaviour.forbidden) return lobError(response, 403, 'invalid_api_key', 'This API key may not list checks.');
  if ((behaviour.rateLimited ?? 0) > 0) {
    behaviour.rateLimited! -= 1;
    const reset = Math.ceil(Date.now() / 1000) + (behaviour.resetInSeconds ?? 0);
    response.setHeader('X-Rate-Limit-Limit', '150');
    response.setHeader('X-Rate-Limit-Remaining', '0');
    response.setHeader('X-Rate-Limit-Reset', String(reset));
    if (behaviour.retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(behaviour.retryAfterSeconds));
    return lobError(response, 429, 'rate_limit_exceeded', 'Rate limit exceeded. Please wait and try your request again.');
  }
  if ((behaviour.failures ?? 0) > 0) {
    behaviour.failures! -= 1;
    return lobError(response, behaviour.failureStatus ?? 500, 'internal_server_error', 'An error has occurred on our end.');
  }
  if (behaviour.garbage) {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html>maintenance</html>');
    return;
  }
  listChecks(url.searchParams, account.checks, response);
}

function listChecks(query: URLSearchParams, checks: FakeCheck[], response: ServerResponse): void {
  for (const name of query.keys()) {
    if (!KNOWN_PARAMS.has(name)) return lobError(response, 422, 'invalid', `${name} is not allowed`);
  }
  const limit = query.has('limit') ? Number(query.get('limit')) : 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return lobError(response, 422, 'invalid', 'limit must be less than or equal to 100');
  if (query.has('before') && query.has('after')) return lobError(response, 422, 'invalid', 'only one of before and after is allowed');

  const sortEntries = ['date_created', 'send_date'].filter((field) => query.has(`sort_by[${field}]`));
  if (sortEntries.length > 1) return lobError(response, 422, 'invalid', 'sort_by takes one field');
  const field = (sortEntries[0] ?? 'date_created') as 'date_created' | 'send_date';
  const direction = query.get(`sort_by[${field}]`) ?? 'desc';
  if (direction !== 'asc' && direction !== 'desc') return lobError(response, 422, 'invalid', 'sort_by must be asc or desc');

  let matching = checks.filter((check) => matches(check, query));
  const sign = direction === 'asc' ? 1 : -1;
  const compare = (a: { value: string; id: string }, b: { value: string; id: string }) =>
    sign * (Date.parse(a.value) - Date.parse(b.value) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const keyOf = (check: FakeCheck) => ({ value: check[field] as string, id: check.id });
  matching = matching.sort((a, b) => compare(keyOf(a), keyOf(b)));

  let page: FakeCheck[];
  let start: number;
  const after = query.get('after');
  const before = query.get('before');
  if (after !== null || before !== null) {
    const offset = readCursor((after ?? before)!);
    if (!offset || offset.field !== field) return lobError(response, 422, 'invalid', 'the cursor is not valid');
    const at = { value: offset.dateOffset, id: offset.idOffset };
    if (after !== null) {
      start = matching.findIndex((check) => compare(keyOf(check), at) > 0);
      if (start === -1) start = matching.length;
    } else {
      const end = matching.findIndex((check) => compare(keyOf(check), at) >= 0);
      start = Math.max(0, (end === -1 ? matching.length : end) - limit);
      page = matching.slice(start, end === -1 ? matching.length : end).slice(-limit);
    }
  } else {
    start = 0;
  }
  page ??= matching.slice(start, start + limit);
  const first = page[0];
  const last = page.at(-1);
  const firstIndex = first ? matching.indexOf(first) : start;
  const lastIndex = last ? matching.indexOf(last) : start - 1;
  // Lob's links carry its own host; a client must never hand them to its callers.
  const link = (param: string, check: FakeCheck) => `https://api.lob.com/v1/checks?limit=${limit}&${param}=${encodeURIComponent(writeCursor(field, check))}`;
  const body = {
    data: page,
    object: 'list',
    next_url: last && lastIndex < matching.length - 1 ? link('after', last) : null,
    previous_url: first && firstIndex > 0 ? link('before', first) : null,
    count: page.length,
  };
  response.writeHead(200, { 'content-type': 'application/json', 'X-Rate-Limit-Limit': '150', 'X-Rate-Limit-Remaining': '149' });
  response.end(JSON.stringify(body));
}

function matches(check: FakeCheck, query: URLSearchParams): boolean {
  for (const field of ['date_created', 'send_date'] as const) {
    const value = Date.parse(check[field]);
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      const bound = query.get(`${field}[${op}]`);
      if (bound === null) continue;
      const at = Date.parse(bound);
      const ok = op === 'gt' ? value > at : op === 'gte' ? value >= at : op === 'lt' ? value < at : value <= at;
      if (!ok) return false;
    }
  }
  const scheduled = query.get('scheduled');
  if (scheduled !== null) {
    const isScheduled = Date.parse(check.send_date) > Date.parse(check.date_created);
    if (isScheduled !== (scheduled === 'true')) return false;
  }
  const mailType = query.get('mail_type');
  return mailType === null || check.mail_type === mailType;
}

function writeCursor(field: string, check: FakeCheck): string {
  return Buffer.from(JSON.stringify({ dateOffset: check[field], idOffset: check.id, field })).toString('base64');
}

function readCursor(cursor: string): { dateOffset: string; idOffset: string; field: string } | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    return typeof parsed.dateOffset === 'string' && typeof parsed.idOffset === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function basicUser(request: IncomingMessage): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // Lob's key is the user name and the password is empty.
  return colon === -1 || decoded.slice(colon + 1) !== '' ? null : decoded.slice(0, colon);
}

function lobError(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, status_code: status, code } }));
}
