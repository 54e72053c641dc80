import { setTimeout as sleep } from 'node:timers/promises';
import { openStream, type SseClient } from '../../events/sse-client.js';

/**
 * A live-stream client as the docs tell integrators to write one: when the connection ends it
 * connects again with `Last-Event-ID` set to the last id it got, so it misses nothing.
 */
export interface ResumableStream {
  /** Event ids received, over every connection, in order. */
  readonly ids: string[];
  /** The replica (X-Wrs-Replica) of each connection, in order. */
  readonly replicas: string[];
  /** Connections that ended and were made again. */
  readonly reconnects: number;
  waitForCount(count: number, timeoutMs: number): Promise<void>;
  stop(): void;
}

export async function followStream(baseUrl: string, token: string): Promise<ResumableStream> {
  const ids: string[] = [];
  const replicas: string[] = [];
  let lastId: string | undefined;
  let reconnects = 0;
  let stopped = false;
  let current: SseClient | undefined;

  const connect = async (): Promise<SseClient | undefined> => {
    while (!stopped) {
      try {
        const client = await openStream(baseUrl, token, '/v1/events/stream', lastId ? { 'last-event-id': lastId } : {});
        if (client.status === 200 && !stopped) return client;
        client.close();
      } catch {
        // the replica went away between the balancer's choice and the connection: try again
      }
      await sleep(100);
    }
    return undefined;
  };

  const consume = (client: SseClient): void => {
    current = client;
    replicas.push(String(client.headers['x-wrs-replica']));
    let seen = 0;
    const take = () => {
      for (; seen < client.messages.length; seen++) {
        const message = client.messages[seen]!;
        ids.push(JSON.parse(message.data!).id as string);
        lastId = message.id;
      }
    };
    const poll = setInterval(take, 20);
    void client.closed.then(async () => {
      clearInterval(poll);
      take();
      if (stopped) return;
      reconnects++;
      const next = await connect();
      if (next) consume(next);
    });
  };

  consume((await connect())!);
  return {
    ids,
    replicas,
    get reconnects() {
      return reconnects;
    },
    async waitForCount(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (ids.length < count) {
        if (Date.now() > deadline) throw new Error(`stream: ${ids.length} of ${count} events after ${timeoutMs} ms`);
        await sleep(50);
      }
    },
    stop() {
      stopped = true;
      current?.close();
    },
  };
}
