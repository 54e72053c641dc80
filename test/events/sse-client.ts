import { request, type IncomingMessage } from 'node:http';

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
}

/** A Server-Sent Events client over a real socket, parsing the stream as a browser would. */
export interface SseClient {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  /** Messages with data, in order. */
  readonly messages: SseMessage[];
  /** Comment lines seen (`: ping` gives 'ping'). */
  readonly comments: string[];
  /** Raw body of a non-200 answer. */
  readonly errorBody: string;
  readonly closed: Promise<void>;
  isClosed(): boolean;
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  pause(): void;
  resume(): void;
  close(): void;
}

export async function openStream(baseUrl: string, token: string, path = '/v1/events/stream', headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (response) => {
      const messages: SseMessage[] = [];
      const comments: string[] = [];
      const waiters: { count: number; resolve: () => void }[] = [];
      let buffer = '';
      let errorBody = '';
      let closed = false;
      let markClosed!: () => void;
      const closedPromise = new Promise<void>((done) => (markClosed = done));
      const onClose = () => {
        closed = true;
        markClosed();
      };
      response.on('close', onClose);
      response.on('error', onClose);
      // A paused response reports nothing until read: the socket says when the server cut it.
      response.socket.on('close', onClose);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (response.statusCode !== 200) {
          errorBody += chunk;
          return;
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const field = line.slice(0, colon);
              const value = line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id' || field === 'event' || field === 'data') message[field] = value;
            }
          }
          if (message.data !== undefined) messages.push(message);
        }
        for (const waiter of [...waiters]) {
          if (messages.length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      });
      const client: SseClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        comments,
        get errorBody() {
          return errorBody;
        },
        closed: closedPromise,
        isClosed: () => closed,
        waitFor(count, timeoutMs = 5000) {
          if (messages.length >= count) return Promise.resolve(messages.slice());
          return new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`only ${messages.length} of ${count} messages within ${timeoutMs} ms`)), timeoutMs);
            waiters.push({
              count,
              resolve: () => {
                clearTimeout(timer);
                done(messages.slice());
              },
            });
          });
        },
        pause: () => response.pause(),
        resume: () => response.resume(),
        close: () => {
          req.destroy();
          response.destroy();
        },
      };
      if (response.statusCode !== 200) response.on('end', () => resolve(client));
      else resolve(client);
    });
    req.end();
  });
}

export const idsOf = (messages: readonly SseMessage[]): string[] => messages.map((message) => (JSON.parse(message.data!) as { id: string }).id);
