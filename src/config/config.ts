import { randomBytes } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { OperationsEnv, operationsSettings, type OperationsSettings } from './operations.js';
import { NetworkEnv, networkSettings, type NetworkSettings } from './network.js';
import { DataEnv, dataSettings, type DataLocation } from './data-location.js';
import { chooseLogFormat, LogFormatEnv, type LogFormat } from './log-format.js';
import { StreamEnv, streamSettings, type StreamSettings } from './streams.js';
import { WebhooksEnv, webhookSettings, type WebhookSettings } from './webhooks.js';
import { DataLifecycleEnv, dataLifecycleSettings, type DataLifecycleSettings } from './data-lifecycle.js';
import { PageCacheEnv, pageCacheSettings, type PageCacheSettings } from './page-cache.js';
import { FastPathEnv, fastPathSettings } from './fast-path.js';
import { ReadReplicaEnv, readReplicaSettings, type ReadReplicaSettings } from './read-replica.js';
import { TracingEnv, tracingSettings, type TracingSettings } from './tracing.js';
import { MetricsEnv, metricsSettings, type MetricsSettings } from './metrics.js';
import { RetentionEnv, retentionSettings, type RetentionSettings } from './retention.js';

/** Every setting the service reads from its environment, with its default. */
const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  PORT: Type.Integer({ default: 8080, minimum: 0, maximum: 65535 }),
  WRS_LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  WRS_BODY_LIMIT_BYTES: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  WRS_JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  WRS_JWT_PUBLIC_KEY: Type.Optional(Type.String({ pattern: '-----BEGIN PUBLIC KEY-----' })),
  WRS_JWT_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  WRS_JWT_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  WRS_JWT_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  WRS_JWT_LEEWAY_S: Type.Integer({ default: 0, minimum: 0, maximum: 3600 }),
  WRS_JWT_REQUIRE_EXP: Type.Optional(Type.Boolean()),
  WRS_JWT_MAX_LIFETIME_S: Type.Optional(Type.Integer({ minimum: 1, maximum: 315_360_000 })),
  WRS_ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  WRS_ENCRYPTION_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  WRS_PDF_WORKERS: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  WRS_PDF_TIMEOUT_MS: Type.Integer({ default: 15_000, minimum: 100 }),
  WRS_PDF_QUEUE_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 1 })),
  WRS_PDF_RENDERS_PER_THREAD: Type.Integer({ default: 4, minimum: 1, maximum: 64 }),
  WRS_PDF_THREAD_NICE: Type.Integer({ default: 10, minimum: 0, maximum: 19 }),
  WRS_PDF_ISOLATION: Type.Union([Type.Literal('thread'), Type.Literal('process')], { default: 'thread' }),
  WRS_PDF_THREAD_IDLE_MS: Type.Integer({ default: 60_000, minimum: 0 }),
  WRS_PDF_INPUT_LIMIT_BYTES: Type.Integer({ default: 32_768, minimum: 1024 }),
  WRS_TEMPLATE_LIMIT_BYTES: Type.Integer({ default: 5 * 1_048_576, minimum: 1024 }),
  LOB_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  LOB_BASE_URL: Type.String({ default: 'https://api.lob.com/v1', pattern: '^https?://' }),
  WRS_LOB_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 1 }),
  WRS_LOB_MAX_RETRIES: Type.Integer({ default: 3, minimum: 0, maximum: 10 }),
  WRS_LOB_RETRY_BASE_MS: Type.Integer({ default: 250, minimum: 0, maximum: 60_000 }),
  WRS_LOB_RETRY_BUDGET_MS: Type.Integer({ default: 5_000, minimum: 0, maximum: 120_000 }),
  ...DataEnv,
  ...LogFormatEnv,
  ...OperationsEnv,
  ...NetworkEnv,
  ...StreamEnv,
  ...WebhooksEnv,
  ...PageCacheEnv,
  ...FastPathEnv,
  ...DataLifecycleEnv,
  ...ReadReplicaEnv,
  ...TracingEnv,
  ...MetricsEnv,
  ...RetentionEnv,
});

type Env = Static<typeof EnvSchema>;

export interface Config extends OperationsSettings, NetworkSettings {
  readonly env: Env['NODE_ENV'];
  /** Where to listen: 127.0.0.1 unless set, 0.0.0.0 in production (a container or balancer must reach it). */
  readonly host: string;
  readonly port: number;
  /** WRS_DATABASE_URL; a SQLite file by its absolute path (default: wrs.db in the data folder). */
  readonly databaseUrl: string;
  readonly data: DataLocation;
  readonly logLevel: string;
  readonly logFormat: LogFormat;
  readonly bodyLimitBytes: number;
  readonly jwt: {
    readonly secret: string;
    readonly publicKeyPem: string | undefined;
    readonly jwksUrl: string | undefined;
    readonly issuer: string | undefined;
    readonly audience: string | undefined;
    readonly leewaySeconds: number;
    /** Whether a user JWT without `exp` is refused (WRS_JWT_REQUIRE_EXP; default: in production only). */
    readonly requireExpiry: boolean;
    /** Longest lifetime a user JWT may have (exp - iat, or exp - now without iat); undefined: no cap. */
    readonly maxLifetimeSeconds: number | undefined;
  };
  readonly adminToken: string;
  readonly encryptionKey: Buffer;
  readonly pdf: {
    /** Render threads at most; unset: from the CPUs and the memory free (providers/pdf/render-pool-size.ts). */
    readonly workers: number | undefined;
    /** Renders one thread interleaves. */
    readonly rendersPerThread: number;
    /** The render threads' scheduling priority below the serving thread's (Linux nice; 0: the same). */
    readonly threadNice: number;
    /** Renders run in worker threads, or in child processes run wholly at the lower priority. */
    readonly isolation: 'thread' | 'process';
    /** A thread without a render for this long stops; 0 keeps threads once started. */
    readonly threadIdleMs: number;
    /** One render's share of its thread, from the moment it has a thread. */
    readonly timeoutMs: number;
    /** Longest wait for a render thread (default: timeoutMs). */
    readonly queueTimeoutMs: number;
    /** Largest record data (field names and values, UTF-8) a render takes in. */
    readonly inputLimitBytes: number;
    readonly templateLimitBytes: number;
  };
  readonly lob: {
    readonly apiKey: string | undefined;
    readonly baseUrl: string;
    readonly timeoutMs: number;
    /** Retries of one Lob call on 429, 5xx and network errors; backoff doubles from retryBaseMs. */
    readonly maxRetries: number;
    readonly retryBaseMs: number;
    /** Total time one GET /v1/checks may spend waiting between retries. */
    readonly retryBudgetMs: number;
  };
  /** The live event stream: heartbeat, slow-client bound, safety re-check. */
  readonly stream: StreamSettings;
  readonly webhooks: WebhookSettings;
  /** Recent list answers kept per process, by company and data version. */
  readonly pageCache: PageCacheSettings;
  /** WRS_FAST_PATH: list reads may be answered by src/fast-path/ (false: the plain path alone, the same bytes). */
  readonly fastPath: boolean;
  readonly dataLifecycle: DataLifecycleSettings;
  /** WRS_DATABASE_READ_URL and its pool: the PostgreSQL standby that answers list reads; undefined: none. */
  readonly readReplica: ReadReplicaSettings | undefined;
  /** OpenTelemetry traces: whether they are on (the standard OTEL_* variables) and the service's name. */
  readonly tracing: TracingSettings;
  /** Who may read GET /metrics besides the operator. */
  readonly metrics: MetricsSettings;
  /** Retention of events: the deployment's default period and the sweep's pace. */
  readonly retention: RetentionSettings;
  /** Names of secrets that were unset and generated for this process (development only). */
  readonly generatedSecrets: readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const SECRET_GENERATORS = {
  WRS_JWT_SECRET: () => randomBytes(32).toString('base64url'),
  WRS_ADMIN_TOKEN: () => `wrs_admin_${randomBytes(24).toString('base64url')}`,
  WRS_ENCRYPTION_KEY: () => randomBytes(32).toString('hex'),
} as const;

/** What the process is run in, besides its environment: it resolves relative paths and chooses the log format. */
export interface Surroundings {
  readonly cwd: string;
  readonly stdoutIsTerminal: boolean;
}

const PROCESS_SURROUNDINGS: Surroundings = {
  get cwd() {
    return process.cwd();
  },
  get stdoutIsTerminal() {
    return process.stdout.isTTY === true;
  },
};

/** Parses the environment once; throws ConfigError listing every problem at once. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, surroundings: Surroundings = PROCESS_SURROUNDINGS): Config {
  const known = Object.keys(EnvSchema.properties);
  const raw: Record<string, unknown> = {};
  for (const key of known) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  // Value.Convert reads '1.5' and '1e3' as 1: an integer setting must be written as one.
  const notWhole = known.filter((key) => {
    const value = raw[key];
    const schema = (EnvSchema.properties as Record<string, { type?: unknown }>)[key];
    return schema?.type === 'integer' && typeof value === 'string' && !/^\s*[+-]?\d+\s*$/.test(value);
  });
  const converted = Value.Convert(EnvSchema, Value.Default(EnvSchema, raw));
  const problems = [
    ...notWhole.map((key) => `${key}: Expected integer (got ${JSON.stringify(source[key])})`),
    ...[...Value.Errors(EnvSchema, converted)]
      .filter((error) => !notWhole.includes(error.path.slice(1)))
      .map((error) => `${error.path.slice(1) || 'environment'}: ${error.message} (got ${JSON.stringify(error.value)})`),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const env = converted as Env;

  const generatedSecrets: string[] = [];
  const secret = (name: keyof typeof SECRET_GENERATORS): string => {
    const given = env[name];
    if (given !== undefined) return given;
    if (env.NODE_ENV === 'production') {
      problems.push(`${name}: required when NODE_ENV=production`);
      return '';
    }
    generatedSecrets.push(name);
    return SECRET_GENERATORS[name]();
  };
  const jwtSecret = secret('WRS_JWT_SECRET');
  const adminToken = secret('WRS_ADMIN_TOKEN');
  const encryptionKey = secret('WRS_ENCRYPTION_KEY');
  const operations = operationsSettings(env, problems);
  const host = env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1');
  const network = networkSettings(env, env.NODE_ENV === 'production', { host, port: env.PORT }, problems);
  const data = dataSettings(env, surroundings.cwd);
  const readReplica = readReplicaSettings(env, data.databaseUrl, problems);
  if (env.WRS_JWT_PUBLIC_KEY && env.WRS_JWT_JWKS_URL) {
    problems.push('WRS_JWT_PUBLIC_KEY and WRS_JWT_JWKS_URL: set at most one');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    ...operations,
    ...network,
    ...data,
    ...readReplica,
    ...streamSettings(env),
    ...webhookSettings(env),
    ...pageCacheSettings(env),
    ...fastPathSettings(env),
    ...dataLifecycleSettings(env),
    tracing: tracingSettings(env),
    ...metricsSettings(env),
    ...retentionSettings(env),
    env: env.NODE_ENV,
    host,
    port: env.PORT,
    logLevel: env.WRS_LOG_LEVEL,
    logFormat: chooseLogFormat(env.WRS_LOG_FORMAT, env.NODE_ENV, surroundings.stdoutIsTerminal),
    bodyLimitBytes: env.WRS_BODY_LIMIT_BYTES,
    jwt: Object.freeze({
      secret: jwtSecret,
      publicKeyPem: env.WRS_JWT_PUBLIC_KEY?.replace(/\\n/g, '\n'),
      jwksUrl: env.WRS_JWT_JWKS_URL,
      issuer: env.WRS_JWT_ISSUER,
      audience: env.WRS_JWT_AUDIENCE,
      leewaySeconds: env.WRS_JWT_LEEWAY_S,
      requireExpiry: env.WRS_JWT_REQUIRE_EXP ?? env.NODE_ENV === 'production',
      maxLifetimeSeconds: env.WRS_JWT_MAX_LIFETIME_S,
    }),
    adminToken,
    encryptionKey: Buffer.from(encryptionKey, 'hex'),
    pdf: Object.freeze({
      workers: env.WRS_PDF_WORKERS,
      rendersPerThread: env.WRS_PDF_RENDERS_PER_THREAD,
      threadNice: env.WRS_PDF_THREAD_NICE,
      isolation: env.WRS_PDF_ISOLATION,
      threadIdleMs: env.WRS_PDF_THREAD_IDLE_MS,
      timeoutMs: env.WRS_PDF_TIMEOUT_MS,
      queueTimeoutMs: env.WRS_PDF_QUEUE_TIMEOUT_MS ?? env.WRS_PDF_TIMEOUT_MS,
      inputLimitBytes: env.WRS_PDF_INPUT_LIMIT_BYTES,
      templateLimitBytes: env.WRS_TEMPLATE_LIMIT_BYTES,
    }),
    lob: Object.freeze({
      apiKey: env.LOB_API_KEY,
      baseUrl: env.LOB_BASE_URL.replace(/\/+$/, ''),
      timeoutMs: env.WRS_LOB_TIMEOUT_MS,
      maxRetries: env.WRS_LOB_MAX_RETRIES,
      retryBaseMs: env.WRS_LOB_RETRY_BASE_MS,
      retryBudgetMs: env.WRS_LOB_RETRY_BUDGET_MS,
    }),
    generatedSecrets: Object.freeze(generatedSecrets),
  });
}
