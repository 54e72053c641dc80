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

/**
 * An ioredis client that never makes a request wait long: a command waits at most the
 * configured timeout, and while the connection is down commands fail at once instead of
 * queueing for it. ioredis reports connection problems as 'error' events, which must have a
 * listener: they go to `onConnectionError`. It connects when `connect` is called.
 */
export function createRateLimitRedis(settings: RedisSettings, onConnectionError: (error: Error) => void): Redis {
  const redis = new Redis(settings.url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: settings.timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: reconnectDelayMs,
    connectionName: 'wrs-rate-limit',
    lazyConnect: true,
  });
  redis.on('error', onConnectionError);
  return redis;
}

/**
 * Connects, and resolves when the client is ready, at its first connection failure, or after
 * one connect timeout, whichever comes first: the service starts counting in Redis when it can,
 * and starts serving anyway when it cannot (ioredis keeps reconnecting).
 */
export function connect(redis: Redis): Promise<void> {
  // Failures also come as 'error' events, which are reported.
  redis.connect().catch(() => undefined);
  return new Promise((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      redis.off('ready', settle);
      redis.off('error', settle);
      resolve();
    };
    const timer = setTimeout(settle, CONNECT_TIMEOUT_MS);
    redis.once('ready', settle);
    redis.once('error', settle);
  });
}
