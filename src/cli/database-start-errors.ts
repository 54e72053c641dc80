import { ConfigError } from '../config/config.js';

/** The database URL as it may be shown: a PostgreSQL password is masked. */
export function maskedDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/**
 * Why PostgreSQL could not be reached or entered, by Node's error code or the server's SQLSTATE:
 * causes an operator fixes in WRS_DATABASE_URL or in the database server, not bugs.
 */
const CONNECTION_PROBLEMS: Record<string, (serverMessage: string) => string> = {
  ECONNREFUSED: () => 'PostgreSQL refuses connections at that address: start it, or correct the host and port',
  ENOTFOUND: () => 'the host is not a name this machine can resolve: correct the host',
  EHOSTUNREACH: () => 'the host cannot be reached from this machine: correct the host, or check the network',
  ETIMEDOUT: () => 'PostgreSQL did not answer in time at that address: correct the host and port, or check the network',
  '3D000': (message) => `${message}: create it (createdb) or name an existing one`,
  '28000': (message) => `${message}: create the role, or name one that may connect`,
  '28P01': (message) => `${message}: correct the password`,
};

/** One line, no stack (exit 78 like every configuration error). */
export class DatabaseStartError extends ConfigError {
  constructor(problem: string) {
    super([problem]);
    this.message = problem;
    this.name = 'DatabaseStartError';
  }
}

/**
 * A failure to reach the database at start, as a DatabaseStartError naming the cause and
 * WRS_DATABASE_URL (its password masked); any other error is returned as it is.
 */
export function databaseStartError(error: unknown, databaseUrl: string): unknown {
  const cause = connectionCause(error);
  if (!cause) return error;
  return new DatabaseStartError(`cannot open the database WRS_DATABASE_URL=${maskedDatabaseUrl(databaseUrl)}: ${cause}`);
}

function connectionCause(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const describe = typeof code === 'string' ? CONNECTION_PROBLEMS[code] : undefined;
  if (describe) return describe(typeof message === 'string' ? message : String(code));
  // A host name with several addresses fails with one error per address (AggregateError).
  for (const inner of Array.isArray(errors) ? errors : []) {
    const found = connectionCause(inner, depth + 1);
    if (found) return found;
  }
  return connectionCause(cause, depth + 1);
}

/** Runs `open`, turning a database that cannot be reached into a DatabaseStartError. */
export async function openingDatabase<T>(databaseUrl: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw databaseStartError(error, databaseUrl);
  }
}
