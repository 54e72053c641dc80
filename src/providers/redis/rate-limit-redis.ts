import { Redis } from 'ioredis';
import type { RedisSettings } from '../../config/redis.js';

/**
 * One connect attempt takes at most this long. Requests never wait for it (there is no offline
 * queue), so it is generous: a shorter one can expire while the event loop is busy, say
 * loading or migrating at start, and the connection never comes up.
 */
const CONNECT_TIMEOUT_MS = 5000;

/** While Redis is away, a reconnect is tried every 100 ms more, at most every second. */
const reconnectDelayMs = (attempt: number): number => Math.min(attempt * 100, 1000);

/** The Redis that every replica counts its rate limits in. */
export interface RateLimitRedis {
  /** The ioredis client, for @fastify/rate-limit's Redis store. */
  readonly client: Redis;
  /** Starts every key: the deployment's prefix (WRS_REDIS_PREFIX), then `rate-limit:`. */
  readonly keyPrefix: string;
  /**
   * Connects, reporting every connection problem to `onConnectionError` from then on. Resolves
   * when ready, at the first failure, or after one connect timeout, whichever comes first: the
   * service starts counting in Redis when it can, and serves anyway when it cannot (ioredis
   * keeps reconnecting).
   */
  connect(onConnectionError: (error: Error) => void): Promise<void>;
  close(): void;
}

/**
 * A client that never makes a request wait long: a command waits at most the configured
 * timeout, and while the connection is down commands fail at once instead of queueing for it.
 * It connects only when asked to.
 */
export function createRateLimitRedis(settings: RedisSettings): RateLimitRedis {
  const client = new Redis(settings.url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: settings.timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: reconnectDelayMs,
    connectionName: 'wrs-rate-limit',
    lazyConnect: true,
  });
  return {
    client,
    // `wrs` and `wrs:` name the same keys, not `wrs::rate-limit:…`.
    keyPrefix: `${settings.prefix.replace(/:+$/, '')}:rate-limit:`,
    connect(onConnectionError) {
      client.on('error', onConnectionError);
      // A failure also comes as an 'error' event, reported above.
      client.connect().catch(() => undefined);
      return new Promise((resolve) => {
        const settle = () => {
          clearTimeout(timer);
          client.off('ready', settle);
          client.off('error', settle);
          resolve();
        };
        const timer = setTimeout(settle, CONNECT_TIMEOUT_MS);
        client.once('ready', settle);
        client.once('error', settle);
      });
    },
    close() {
      client.disconnect();
    },
  };
}
