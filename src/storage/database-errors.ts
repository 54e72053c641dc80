/**
 * Recognises database failures that say "the database cannot serve right now" rather than
 * "this request is wrong": the HTTP layer answers them 503 with Retry-After instead of 500.
 */
export type DatabaseUnavailability = 'unreachable' | 'busy';

/** Socket-level failures on the way to PostgreSQL. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server that is shutting down, starting, out of connections,
 * or that cancelled a statement past statement_timeout.
 */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '57014']);

/** Messages of `pg` and `pg-pool` for a lost, refused or silent connection (they carry no code). */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

export function databaseUnavailability(error: unknown): DatabaseUnavailability | null {
  for (const candidate of causes(error)) {
    const code = (candidate as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
      if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code)) return 'unreachable';
    }
    if (isConnectionMessage(candidate)) return 'unreachable';
  }
  return null;
}

/**
 * True when a PostgreSQL client's connection can no longer be trusted (lost, or a query
 * timed out on the client side while its answer may still arrive): the client is discarded
 * instead of going back to the pool.
 */
export function isBrokenConnection(error: unknown): boolean {
  for (const candidate of causes(error)) {
    const code = (candidate as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (isConnectionMessage(candidate)) return true;
  }
  return false;
}

function isConnectionMessage(candidate: unknown): boolean {
  const message = candidate instanceof Error ? candidate.message : undefined;
  return message !== undefined && CONNECTION_MESSAGES.some((known) => message.startsWith(known));
}

/** The error, its `cause` chain and the members of AggregateErrors (dual-stack connects). */
function* causes(error: unknown, depth = 0): Generator<unknown> {
  if (error === null || error === undefined || depth > 8) return;
  yield error;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) yield* causes(inner, depth + 1);
  }
  if (error instanceof Error && error.cause !== undefined) yield* causes(error.cause, depth + 1);
}

/** A primary key or unique index refused the row: another writer stored the same key first. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
