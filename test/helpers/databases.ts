import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';

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

/**
 * A fresh database, empty; on PostgreSQL, `template` names the database it is a copy of.
 * Tests of migrations use an empty one; an app migrates it as it starts.
 */
export async function createTestDatabase(kind: DatabaseKind, template?: string): Promise<TestDatabase> {
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
  await withAdminClient((client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    kind,
    url: databaseUrl(name),
    drop: () => withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A fresh database with this version's migrations applied. On PostgreSQL it is a copy of a
 * template migrated once for every test process (migrating a new database takes about a second,
 * copying the template no longer than creating an empty one); SQLite migrates in a few ms.
 */
export async function createMigratedTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  return kind === 'sqlite' ? createTestDatabase(kind) : createTestDatabase(kind, await migratedTemplate());
}

const MIGRATIONS = fileURLToPath(new URL('../../src/storage/migrations/', import.meta.url));
/** Held while a process makes the template, so that the test processes beside it wait for it. */
const TEMPLATE_LOCK = 2_026_120_248;
let template: Promise<string> | undefined;

/** The template's name holds a digest of the migrations, so a changed migration makes a new one. */
function migratedTemplate(): Promise<string> {
  const digest = createHash('sha256');
  // Recursive: the copies the migrations carry in frozen/ are part of what they do.
  for (const file of readdirSync(MIGRATIONS, { recursive: true, encoding: 'utf8' }).sort()) {
    if (statSync(join(MIGRATIONS, file)).isFile()) digest.update(file).update(readFileSync(join(MIGRATIONS, file)));
  }
  const name = `wrs_template_${digest.digest('hex').slice(0, 16)}`;
  template ??= withAdminClient(async (client) => {
    const exists = async () => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (await exists()) return name;
      // Made under another name and renamed once migrated: no process copies a half-made template.
      const making = `${name}_making`;
      await client.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${making}`);
      const database = openDatabase(databaseUrl(making));
      try {
        await migrateToLatest(database.db);
      } finally {
        await database.close();
      }
      await client.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
      return name;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return template;
}

function databaseUrl(name: string): string {
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return url.toString();
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
 * WRS_TEST_PG_URL is set (otherwise a visible skipped suite says so). With `concurrently`, the
 * two suites run at the same time, inside one suite named `title`: for suites that spend most of
 * their time waiting (on timeouts, or on processes of their own) rather than computing, and
 * whose two halves share nothing.
 */
export function describeEachDatabase(title: string, suite: (kind: DatabaseKind) => void, options: { concurrently?: boolean } = {}): void {
  const declare = () => {
    for (const kind of ['sqlite', 'postgres'] as const) {
      if (kind === 'postgres' && !PG_URL) {
        describe(`${title} [postgres]`, { skip: 'WRS_TEST_PG_URL is not set' }, () => undefined);
        continue;
      }
      // Each suite's own tests run one after the other (a suite inherits its parent's concurrency).
      describe(`${title} [${kind}]`, { concurrency: 1 }, () => suite(kind));
    }
  };
  if (options.concurrently) describe(title, { concurrency: true }, declare);
  else declare();
}

/**
 * The one database a suite runs on when it runs once: PostgreSQL when WRS_TEST_PG_URL is set
 * (the database of a production deployment), else SQLite. For suites that test what sits above
 * the HTTP API (the browser suites): the API itself is tested on both databases, so running its
 * pages twice would only repeat those tests at many times their cost. Name it in the suite's
 * title, as `describeEachDatabase` does.
 */
export function oneDatabaseKind(): DatabaseKind {
  return PG_URL ? 'postgres' : 'sqlite';
}
