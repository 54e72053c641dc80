import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly at: number;
}

/**
 * What the receiver does, by path: /ok answers 200, /hang never answers, /slow answers 200
 * after `slowMs`, /fail answers 500, /reset cuts the connection, /redirect answers 307 to /redirected,
 * /gone answers 410. Any other path answers 200.
 */
export interface Receiver {
  readonly base: string;
  readonly received: Received[];
  on(path: string): Received[];
  /** Resolves when `count` requests to `path` have arrived. */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(options: { slowMs?: number } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0]!;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (path === '/hang') return;
      if (path === '/reset') return request.socket.destroy();
      if (path === '/slow') return void setTimeout(() => response.end('ok'), options.slowMs ?? 1000);
      if (path === '/fail') return void response.writeHead(500).end('broken');
      if (path === '/gone') return void response.writeHead(410).end('gone');
      if (path === '/redirect') return void response.writeHead(307, { location: '/redirected' }).end();
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const on = (path: string) => received.filter((entry) => entry.path === path);
  return {
    base,
    received,
    on,
    async waitFor(path, count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (on(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path}: ${on(path).length} of ${count} requests arrived within ${timeoutMs} ms`);
        await sleep(10);
      }
      return on(path);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `read` until `done` holds of its answer, or fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await sleep(20);
  }
}

/** Settings that make the worker quick in tests (receivers are local, so private URLs are allowed). */
export const FAST_WEBHOOKS = {
  WRS_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WRS_WEBHOOK_TIMEOUT_MS: '300',
  WRS_WEBHOOK_RETRY_BASE_MS: '40',
  WRS_WEBHOOK_MAX_ATTEMPTS: '3',
  WRS_WEBHOOK_POLL_MS: '50',
};
