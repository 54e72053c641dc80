import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { createAppContext, type AppContext, type AppContextOptions } from '../../src/app-context.js';
import { loadConfig } from '../../src/config/config.js';
import { buildApp, type BuildAppOptions } from '../../src/http/app.js';
import type { Clock } from '../../src/lib/clock.js';
import { createMigratedTestDatabase, type DatabaseKind, type TestDatabase } from './databases.js';

export const TEST_JWT_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly ctx: AppContext;
  readonly database: TestDatabase;
  /** A signed HS256 user token for a company. */
  userToken(companyId: string, userId?: string, extraClaims?: Record<string, unknown>): Promise<string>;
  /** `inject` with a company user's bearer token. */
  as(companyId: string, options: InjectOptions, userId?: string): Promise<LightMyRequestResponse>;
  /** `inject` with the operator token. */
  admin(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Dependencies to use instead of the ones built from the config (e.g. a PDF renderer). */
  context?: Omit<AppContextOptions, 'clock'>;
  /** Another app's database, to run a second replica on (it stays for its owner to drop). */
  database?: TestDatabase;
  /** Options of the HTTP app (default: no logger). */
  app?: BuildAppOptions;
}

/** What every test process of a database is configured with: its URL, the test secrets, no logs. */
function baseTestEnv(database: TestDatabase): Record<string, string> {
  return {
    NODE_ENV: 'test',
    WRS_DATABASE_URL: database.url,
    WRS_JWT_SECRET: TEST_JWT_SECRET,
    WRS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    WRS_ENCRYPTION_KEY: '00'.repeat(32),
    WRS_LOG_LEVEL: 'silent',
  };
}

/**
 * Another serving process's context on an app's database (already migrated), as a second
 * replica has: its own workers, slots and caches. Close it before the app's database is dropped.
 */
export function createReplicaContext(database: TestDatabase, env: Record<string, string> = {}): Promise<AppContext> {
  return createAppContext(loadConfig({ ...baseTestEnv(database), ...env }), { migrate: false });
}

/** Builds the real app on a fresh database of the given kind (or a given one); call close() in `after`. */
export async function createTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createMigratedTestDatabase(kind));
  const config = loadConfig({
    ...baseTestEnv(database),
    WRS_PUBLIC_URL: 'http://wrs.test',
    // Suites send many requests from one address; the hardening tests turn limits on themselves.
    WRS_RATE_LIMIT_PER_MINUTE: '0',
    WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
    WRS_RATE_LIMIT_RECORD_TOKEN_PER_MINUTE: '0',
    ...options.env,
  });
  const ctx = await createAppContext(config, { ...options.context, ...(options.clock ? { clock: options.clock } : {}) });
  const app = await buildApp(ctx, { logger: false, ...options.app });
  await app.ready();

  const userToken = (companyId: string, userId = 'user-1', extraClaims: Record<string, unknown> = {}) =>
    signUserToken({ company_id: companyId, sub: userId, ...extraClaims });

  return {
    app,
    ctx,
    database,
    userToken,
    async as(companyId, injectOptions, userId) {
      const token = await userToken(companyId, userId);
      return app.inject({
        ...injectOptions,
        headers: { authorization: `Bearer ${token}`, ...injectOptions.headers },
      });
    },
    admin(injectOptions) {
      return app.inject({
        ...injectOptions,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...injectOptions.headers },
      });
    },
    async close() {
      await app.close();
      await ctx.close();
      if (!options.database) await database.drop();
    },
  };
}

/**
 * Signs claims with the test secret, the way a company's identity provider would: valid for a
 * day unless the claims or `expiresIn` say otherwise (`expiresIn: null`: no `exp`, which a
 * service in production refuses).
 */
export async function signUserToken(
  claims: Record<string, unknown>,
  options: { secret?: string; expiresIn?: string | number | null; alg?: string } = {},
): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt();
  const expiresIn = options.expiresIn === undefined && claims.exp === undefined ? '1d' : options.expiresIn;
  if (expiresIn !== undefined && expiresIn !== null) jwt = jwt.setExpirationTime(expiresIn);
  return jwt.sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}
