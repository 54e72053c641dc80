import { Type, type Static } from '@sinclair/typebox';

/** A PostgreSQL standby that answers list reads. Part of the one environment schema in `config.ts`. */
export const ReadReplicaEnv = {
  WRS_DATABASE_READ_URL: Type.Optional(Type.String({ pattern: '^(postgres://|postgresql://)' })),
  WRS_DB_READ_POOL_SIZE: Type.Integer({ default: 10, minimum: 1, maximum: 1000 }),
  WRS_DB_READ_CONNECT_TIMEOUT_MS: Type.Integer({ default: 1000, minimum: 100 }),
  WRS_DB_READ_RETRY_MS: Type.Integer({ default: 5000, minimum: 100 }),
};

const ReadReplicaEnvSchema = Type.Object(ReadReplicaEnv);
type ReadReplicaEnvValues = Static<typeof ReadReplicaEnvSchema>;

export interface ReadReplicaSettings {
  /** The standby's URL: a streaming replica of the primary (WRS_DATABASE_URL). */
  readonly url: string;
  readonly poolSize: number;
  /** Longest wait for a standby connection; past it the read goes to the primary. */
  readonly connectTimeoutMs: number;
  /** After a standby failure, reads go straight to the primary for this long before it is tried again. */
  readonly retryMs: number;
}

/** The standby's settings, or undefined without WRS_DATABASE_READ_URL; problems are pushed to `problems`. */
export function readReplicaSettings(
  env: ReadReplicaEnvValues,
  databaseUrl: string,
  problems: string[],
): { readonly readReplica: ReadReplicaSettings | undefined } {
  const url = env.WRS_DATABASE_READ_URL;
  if (url === undefined) return { readReplica: undefined };
  if (databaseUrl.startsWith('sqlite:')) {
    problems.push('WRS_DATABASE_READ_URL: read replicas need a PostgreSQL primary (WRS_DATABASE_URL=postgres://...); SQLite has none');
  }
  return {
    readReplica: Object.freeze({
      url,
      poolSize: env.WRS_DB_READ_POOL_SIZE,
      connectTimeoutMs: env.WRS_DB_READ_CONNECT_TIMEOUT_MS,
      retryMs: env.WRS_DB_READ_RETRY_MS,
    }),
  };
}
