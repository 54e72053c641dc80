import type { Config } from './config/config.js';
import { createAuthenticator, type Authenticator } from './domain/auth/authenticator.js';
import { createJwtVerifier, type JwtVerifier } from './domain/auth/jwt-verifier.js';
import { createTokenSigner, type TokenSigner } from './domain/auth/token-signer.js';
import { systemClock, type Clock } from './lib/clock.js';
import { openDatabase, type Database } from './storage/database.js';
import { migrateToLatest } from './storage/migrator.js';

/**
 * The composition root: every repository, service and provider is built here from the config
 * and handed to the HTTP layer. Nothing else constructs dependencies.
 */
export interface AppContext {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly jwtVerifier: JwtVerifier;
  readonly tokenSigner: TokenSigner;
  readonly authenticator: Authenticator;
  close(): Promise<void>;
}

export interface AppContextOptions {
  clock?: Clock;
  /** Run migrations before serving (default true). */
  migrate?: boolean;
}

export async function createAppContext(config: Config, options: AppContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const database = openDatabase(config.databaseUrl, config.database);
  try {
    if (options.migrate !== false) await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  const jwtVerifier = createJwtVerifier(config.jwt, clock);
  const tokenSigner = createTokenSigner(config.jwt.secret, clock);
  const authenticator = createAuthenticator(jwtVerifier);

  return {
    config,
    database,
    clock,
    jwtVerifier,
    tokenSigner,
    authenticator,
    async close() {
      await database.close();
    },
  };
}
