import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import pg from 'pg';

/** A database a test suite runs against: a fresh SQLite file or a fresh PostgreSQL database. */
export interface TestDatabase {
  readonly kind: 'sqlite' | 'postgres';
  readonly url: string;
  drop(): Promise<void>;
}

export type DatabaseKind = TestDatabase['kind'];

export const PG_URL = process.env.WRS_TEST_PG_URL;

export function databaseKinds(): DatabaseKind[] {
  return PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'wrs-test-'));
    return {
      kind,
      url: `sqlite:${join(dir, 'wrs.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!PG_URL) throw new Error('WRS_TEST_PG_URL is not set');
  const name = `wrs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    drop: () => withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Declares the same suite once per database: always SQLite, and PostgreSQL when
 * WRS_TEST_PG_URL is set (otherwise a visible skipped suite says so).
 */
export function describeEachDatabase(title: string, suite: (kind: DatabaseKind) => void): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    if (kind === 'postgres' && !PG_URL) {
      describe(`${title} [postgres]`, { skip: 'WRS_TEST_PG_URL is not set' }, () => undefined);
      continue;
    }
    describe(`${title} [${kind}]`, () => suite(kind));
  }
}

/**
 * Declares a suite once, on PostgreSQL when WRS_TEST_PG_URL is set (the database of a production
 * deployment), else on SQLite. For suites that test what sits above the HTTP API (the browser
 * suites): the API itself is tested on both databases, so running its pages twice would only
 * repeat those tests at many times their cost.
 */
export function describeOnOneDatabase(title: string, suite: (kind: DatabaseKind) => void): void {
  const kind: DatabaseKind = PG_URL ? 'postgres' : 'sqlite';
  describe(`${title} [${kind}]`, () => suite(kind));
}
