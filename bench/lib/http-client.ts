import { request, type Agent } from 'node:http';

/** Streams NDJSON lines to a URL with backpressure, so a million events never sit in memory. */
export async function postNdjson(url: string, token: string, lines: Iterable<Record<string, unknown>>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    const iterator = lines[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        let chunk = '';
        for (let i = 0; i < 500; i++) {
          const next = iterator.next();
          if (next.done) {
            if (chunk) req.write(chunk);
            req.end();
            return;
          }
          chunk += `${JSON.stringify(next.value)}\n`;
        }
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

export async function jsonRequest(method: string, url: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

/**
 * One JSON request on `agent`'s kept-alive connections: node:http, not fetch, for loads whose
 * client shares the service's cores (fetch spends several times the CPU a request).
 */
export function jsonRequestOn(agent: Agent, method: string, url: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { agent, method, headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** One GET on a kept-alive connection; the body as it came (still compressed if it was). */
export function getBytes(agent: Agent, url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), encoding: res.headers['content-encoding'] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
