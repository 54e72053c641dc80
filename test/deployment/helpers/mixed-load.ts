import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { anEvent } from '../../events/event-fixtures.js';
import { TEST_ADMIN_TOKEN } from '../../helpers/test-app.js';

/** One answer through the balancer: its status (0 when the connection failed) and which replica gave it. */
export interface Answer {
  readonly status: number;
  readonly replica: string | undefined;
  readonly at: number;
  readonly body: unknown;
}

export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: { token: string; body?: string; headers?: Record<string, string> },
): Promise<Answer> {
  try {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${options.token}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body,
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (an HAProxy error page): kept as text
    }
    return { status: response.status, replica: response.headers.get('x-wrs-replica') ?? undefined, at: Date.now(), body };
  } catch {
    return { status: 0, replica: undefined, at: Date.now(), body: undefined };
  }
}

/** What the clients were told was done: the writes the service acknowledged. */
export interface Acknowledged {
  readonly created: Set<string>;
  readonly patched: Set<string>;
  readonly events: Set<string>;
  readonly answers: Answer[];
}

export interface LoadOptions {
  readonly baseUrl: string;
  readonly company: string;
  readonly userToken: string;
  readonly recordType: string;
  readonly workers: number;
  /** Pause between one worker's requests: keeps the company under its rate limit. */
  readonly pauseMs: number;
}

/**
 * Creates, patches, ingests and reads through the balancer from several workers, as careful
 * clients do: a create is retried with its Idempotency-Key until it is acknowledged, so a
 * replica dying under it never makes a duplicate; other writes count only when acknowledged.
 */
export function startMixedLoad(options: LoadOptions): { stop(): Promise<Acknowledged> } {
  const acknowledged: Acknowledged = { created: new Set(), patched: new Set(), events: new Set(), answers: [] };
  let stopping = false;
  let eventCounter = 0;
  const call = async (method: string, path: string, body?: string, extra: { token?: string; headers?: Record<string, string> } = {}) => {
    const answer = await send(options.baseUrl, method, path, { token: extra.token ?? options.userToken, body, headers: extra.headers });
    acknowledged.answers.push(answer);
    return answer;
  };

  const create = async () => {
    const key = randomUUID();
    for (let attempt = 0; attempt < 20; attempt++) {
      const answer = await call('POST', `/v1/records/${options.recordType}`, '{}', { headers: { 'idempotency-key': key } });
      if (answer.status === 201) return void acknowledged.created.add((answer.body as { id: string }).id);
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 409 && answer.status !== 429) return;
      await sleep(100);
    }
  };
  const patch = async () => {
    const ids = [...acknowledged.created];
    if (ids.length === 0) return;
    const id = ids[Math.floor(Math.random() * ids.length)]!;
    const answer = await call('PATCH', `/v1/records/${id}`, JSON.stringify({ status: 'done' }));
    if (answer.status === 200) acknowledged.patched.add(id);
  };
  const ingest = async () => {
    const events = Array.from({ length: 3 }, () => anEvent({ id: `mixed-${process.pid}-${++eventCounter}` }));
    const answer = await call('POST', `/admin/v1/companies/${options.company}/events`, events.map((event) => JSON.stringify(event)).join('\n'), {
      token: TEST_ADMIN_TOKEN,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    if (answer.status === 200) for (const event of events) acknowledged.events.add(String(event.id));
  };
  const read = async () => {
    await call('GET', Math.random() < 0.5 ? '/v1/records?limit=10' : '/v1/events?limit=10');
  };

  const actions = [create, patch, ingest, read];
  const workers = Array.from({ length: options.workers }, async (_, worker) => {
    for (let turn = worker; !stopping; turn++) {
      await actions[turn % actions.length]!();
      await sleep(options.pauseMs);
    }
  });
  return {
    async stop() {
      stopping = true;
      await Promise.all(workers);
      return acknowledged;
    },
  };
}
