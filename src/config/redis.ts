import { Type, type Static } from '@sinclair/typebox';

/** The Redis that rate limits are counted in, shared by every replica. Part of the one environment schema in `config.ts`. */
export const RedisEnv = {
  WRS_REDIS_URL: Type.Optional(Type.String({ minLength: 1 })),
  WRS_REDIS_PREFIX: Type.String({ default: 'wrs', pattern: '^[A-Za-z0-9_.:-]{1,64}$' }),
  WRS_REDIS_TIMEOUT_MS: Type.Integer({ default: 250, minimum: 10, maximum: 10_000 }),
};

const RedisEnvSchema = Type.Object(RedisEnv);
type RedisEnvValues = Static<typeof RedisEnvSchema>;

export interface RedisSettings {
  /** `redis://` or `rediss://` (TLS), with user, password and database number as Redis takes them. */
  readonly url: string;
  /** Starts every key, so that deployments sharing one Redis keep apart. */
  readonly prefix: string;
  /** Longest wait for one Redis command; past it the request is served without being counted. */
  readonly timeoutMs: number;
}

/** Null without WRS_REDIS_URL: limits are then counted in each process's memory. */
export function redisSettings(env: RedisEnvValues, problems: string[]): RedisSettings | null {
  if (env.WRS_REDIS_URL === undefined) return null;
  if (!isRedisUrl(env.WRS_REDIS_URL)) {
    // The value is not repeated: it may hold a password.
    problems.push('WRS_REDIS_URL: must be a redis:// or rediss:// URL with a host, like redis://127.0.0.1:6379/0');
    return null;
  }
  return Object.freeze({ url: env.WRS_REDIS_URL, prefix: env.WRS_REDIS_PREFIX, timeoutMs: env.WRS_REDIS_TIMEOUT_MS });
}

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '' && /^(\/\d*)?$/.test(url.pathname);
  } catch {
    return false;
  }
}
