import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { FeedSignal } from '../domain/events/feed-signal.port.js';
import type { Database } from './database.js';
import { postgresDriver } from './postgres-driver.js';

/** The PostgreSQL channel every replica listens on; a payload is `<replica>\n<company>`. */
export const FEED_CHANNEL = 'wrs_events_feed';
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MAX_MS = 10_000;

type Listener = (companyId: string | null) => void;

/**
 * The feed signal: listeners of this process hear a change at once; on PostgreSQL the change is
 * also sent with NOTIFY (after the commit, not awaited), and one dedicated connection per
 * process LISTENs, reconnecting with backoff, so that stream clients of every replica wake up.
 * The listening connection opens only when the first stream client arrives.
 */
export function createFeedSignal(database: Database, databaseUrl: string): FeedSignal {
  const listeners = new Set<Listener>();
  const emit = (companyId: string | null): void => {
    for (const listener of listeners) listener(companyId);
  };
  if (database.dialect !== 'postgres') {
    return {
      changed: (companyId) => emit(companyId),
      listen: (listener) => addListener(listeners, listener),
      close: async () => listeners.clear(),
    };
  }

  const replica = randomUUID();
  const listening = createListeningConnection(
    databaseUrl,
    (payload) => {
      const newline = payload.indexOf('\n');
      if (newline < 0 || payload.slice(0, newline) === replica) return;
      emit(payload.slice(newline + 1));
    },
    () => emit(null),
  );
  return {
    changed(companyId) {
      emit(companyId);
      sql`select pg_notify(${FEED_CHANNEL}, ${`${replica}\n${companyId}`})`.execute(database.db).catch(() => undefined);
    },
    listen(listener) {
      listening.start();
      return addListener(listeners, listener);
    },
    async close() {
      listeners.clear();
      await listening.stop();
    },
  };
}

function addListener(listeners: Set<Listener>, listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

interface ListeningConnection {
  start(): void;
  stop(): Promise<void>;
}

/** One LISTEN connection that comes back after a loss; `onResumed` runs after each comeback (changes may have been missed). */
function createListeningConnection(url: string, onPayload: (payload: string) => void, onResumed: () => void): ListeningConnection {
  let client: pg.Client | undefined;
  let started = false;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delay = RECONNECT_FIRST_MS;
  let attempted = false;

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const resumed = attempted;
    attempted = true;
    const next = new postgresDriver.Client({ connectionString: url, keepAlive: true });
    client = next;
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      if (client === next) client = undefined;
      scheduleReconnect();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', (message) => {
      if (message.channel === FEED_CHANNEL && message.payload !== undefined) onPayload(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${FEED_CHANNEL}`);
    } catch {
      onLost();
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    delay = RECONNECT_FIRST_MS;
    if (resumed) onResumed();
  };

  const scheduleReconnect = (): void => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  return {
    start() {
      if (started) return;
      started = true;
      void connect();
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        current.removeAllListeners('error');
        current.on('error', () => undefined);
        await current.end().catch(() => undefined);
      }
    },
  };
}
