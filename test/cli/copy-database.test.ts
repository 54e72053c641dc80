import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { settleFeed } from '../events/feed-fixtures.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, runCli, type CliRun } from '../helpers/cli-process.js';
import { createTestDatabase, PG_URL, type TestDatabase } from '../helpers/databases.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord } from '../pdf/fixtures/records.js';
import { expectStatus } from '../records/fixtures.js';
import { eventually, FAST_WEBHOOKS, startReceiver, type Receiver } from '../webhooks/receiver.js';
import { BUSY_COMPANY, BUSY_EVENTS, COMPANY, comparedPaths, feedPages, fillService, readPath, type SourceData } from './copy-database-fixtures.js';
import { COPIED_TABLES } from '../../src/storage/table-registry.js';

const APP_ENV = { ...FAST_WEBHOOKS, WRS_PDF_WORKERS: '1' };
const sqliteFileOf = (database: TestDatabase) => database.url.slice('sqlite:'.length);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function expectRun(run: CliRun, status: number): CliRun {
  assert.equal(run.status, status, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

/** A failure the operator can act on: one plain message, no stack trace. */
function expectPlainFailure(run: CliRun, message: RegExp): void {
  expectRun(run, 1);
  assert.match(run.stderr, message);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
  assert.equal(run.stdout, '');
}

async function rowsInTarget(url: string, table: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ present: string | null }>('select to_regclass($1) as present', [table]);
    if (rows[0]!.present === null) return null;
    return Number((await client.query(`select count(*) as n from ${table}`)).rows[0].n);
  } finally {
    await client.end();
  }
}

/** The refusals run in this process, but for the unreachable target, a real process; the copies below all are. */
describe('wrs copy-database: a source or target it cannot use', () => {
  let dir: string;
  let wrsFile: string;
  const copy = (args: string[]) => runCliInProcess(['copy-database', ...args], cliEnv(join(dir, 'configured.db')));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-copy-refusals-'));
    const source = await createTestApp('sqlite', { database: { kind: 'sqlite', url: `sqlite:${join(dir, 'wrs.db')}`, drop: async () => undefined } });
    await source.close();
    wrsFile = join(dir, 'wrs.db');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a missing source, a file that is not SQLite and a SQLite file that is not wrs', async () => {
    expectPlainFailure(
      await copy(['--from', `sqlite:${join(dir, 'missing.db')}`, '--to', 'postgres://127.0.0.1:1/x']),
      /^no SQLite database at .*missing\.db\n$/,
    );

    const textFile = join(dir, 'notes.db');
    copyFileSync(new URL(import.meta.url), textFile);
    expectPlainFailure(
      await copy(['--from', `sqlite:${textFile}`, '--to', 'postgres://127.0.0.1:1/x']),
      /notes\.db cannot be read as a SQLite database: file is not a database/,
    );

    const other = join(dir, 'other.db');
    const otherDb = new SqliteDatabase(other);
    otherDb.exec('create table things (id integer primary key)');
    otherDb.close();
    expectPlainFailure(await copy(['--from', `sqlite:${other}`, '--to', 'postgres://127.0.0.1:1/x']), /other\.db is not a wrs database/);
  });

  it('refuses an unreachable target, with its password masked', async () => {
    const run = await runCli(
      ['copy-database', '--from', `sqlite:${wrsFile}`, '--to', 'postgres://wrs:hunter2@127.0.0.1:1/wrs'],
      cliEnv(join(dir, 'configured.db')),
    );
    expectPlainFailure(run, /^cannot connect to postgres:\/\/wrs:\*\*\*@127\.0\.0\.1:1\/wrs: .*ECONNREFUSED/);
    assert.doesNotMatch(run.stderr, /hunter2/);
  });

  it('answers usage errors with exit status 2', async () => {
    const notPostgres = expectRun(await copy(['--from', `sqlite:${wrsFile}`, '--to', 'mysql://db/wrs']), 2);
    assert.match(notPostgres.stderr, /--to must be a PostgreSQL URL/);
    assert.match(expectRun(await copy(['--from', `sqlite:${wrsFile}`]), 2).stderr, /--to is required/);
    assert.match(expectRun(await copy(['--from', 'postgres://db/wrs', '--to', 'postgres://db/x']), 2).stderr, /--from must name a SQLite file/);
  });
});

describe('wrs copy-database into PostgreSQL', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let sourceDatabase: TestDatabase;
  let target: TestDatabase;
  let receiver: Receiver;
  let data: SourceData;
  let run: CliRun;
  let fileHashBefore: string;
  const before_: { answers: unknown[]; pdf: Buffer; feeds: Map<string, Awaited<ReturnType<typeof feedPages>>> } = {
    answers: [],
    pdf: Buffer.alloc(0),
    feeds: new Map(),
  };
  let moved: TestApp;

  const copyInto = (url: string, from = sqliteFileOf(sourceDatabase), extra: string[] = []) =>
    runCli(['copy-database', '--from', `sqlite:${from}`, '--to', url, ...extra], cliEnv(from));

  before(
    async () => {
      receiver = await startReceiver();
      sourceDatabase = await createTestDatabase('sqlite');
      const source = await createTestApp('sqlite', { database: sourceDatabase, env: APP_ENV });
      try {
        data = await fillService(source, receiver.base);
        for (const path of comparedPaths(data)) before_.answers.push(await readPath(source, path));
        const download = await source.as(COMPANY, { url: data.pdfPath });
        assert.equal(download.statusCode, 200);
        before_.pdf = download.rawPayload;
        for (const company of [COMPANY, BUSY_COMPANY]) before_.feeds.set(company, await feedPages(source, company));
      } finally {
        await source.close();
      }
      fileHashBefore = sha256(readFileSync(sqliteFileOf(sourceDatabase)));
      target = await createTestDatabase('postgres');
      run = await copyInto(target.url);
      moved = await createTestApp('postgres', { database: target, env: APP_ENV });
    },
    { timeout: 300_000 },
  );
  after(
    async () => {
      await moved?.close();
      await target?.drop();
      await sourceDatabase?.drop();
      await receiver?.close();
    },
    { timeout: 300_000 },
  );

  it('copies every table, prints the rows of each, and logs its progress as plain lines when stderr is not a terminal', { timeout: 300_000 }, () => {
    expectRun(run, 0);
    assert.match(run.stdout, /^copied [\d,]+ rows from sqlite:.*wrs\.db to postgres:\/\/.* in [\d.]+ s \([\d,]+ rows\/s\); row counts verified\n/);
    assert.match(run.stdout, /\n {2}events +4,5\d\d\n/);
    assert.match(run.stdout, /\n {2}blobs +1\n/);
    assert.match(run.stdout, /\n {2}webhook_deliveries +\d+\n/);
    assert.match(run.stderr, new RegExp(`^copying [\\d,]+ rows in ${COPIED_TABLES.length} tables\n`));
    assert.match(run.stderr, /\nevents: 4,5\d\d\/4,5\d\d rows; all tables 4,5\d\d\/[\d,]+ \([\d,]+ rows\/s\)\n/);
    assert.doesNotMatch(run.stderr, /\r|\u001b\[/, 'no bar drawing in a log');
  });

  it('leaves the source file as it was', { timeout: 300_000 }, () => {
    assert.equal(sha256(readFileSync(sqliteFileOf(sourceDatabase))), fileHashBefore);
  });

  it('answers every read as the SQLite service did', { timeout: 300_000 }, async () => {
    const paths = comparedPaths(data);
    for (const [i, path] of paths.entries()) {
      const answer = await readPath(moved, path);
      assert.equal(answer.status, 200, `${path.path}: ${JSON.stringify(answer.body)}`);
      assert.deepEqual(answer, before_.answers[i], path.path);
    }
  });

  it('serves the stored PDF byte for byte', { timeout: 300_000 }, async () => {
    const download = await moved.as(COMPANY, { url: data.pdfPath });
    assert.equal(download.statusCode, 200);
    assert.ok(before_.pdf.length > 1000 && before_.pdf.subarray(0, 5).toString() === '%PDF-');
    assert.equal(sha256(download.rawPayload), sha256(before_.pdf));
  });

  it('keeps the change feed: the same events in the same order, with the same cursors', { timeout: 300_000 }, async () => {
    for (const [company, pages] of before_.feeds) {
      assert.deepEqual(await feedPages(moved, company), pages, company);
    }
    const busyIds = before_.feeds.get(BUSY_COMPANY)!.flatMap((page) => page.body.results.map((event) => event.id));
    assert.equal(busyIds.length, BUSY_EVENTS);
    assert.equal(busyIds.at(-1), 'busy-00010', 'the replaced event is last, where its replacement put it');
  });

  it('takes new writes after the copy: records, events after every copied one, and honours the old token and idempotency key', {
    timeout: 300_000,
  }, async () => {
    const record = await createRecord(moved, COMPANY, 'invoice', { f_customer: 'After the move' });
    assert.ok(!data.recordIds.includes(record.id));

    const endOfCopy = before_.feeds.get(BUSY_COMPANY)!.at(-1)!.body.next_cursor;
    await ingestOk(moved, BUSY_COMPANY, [anEvent({ id: 'after-move-1' }), anEvent({ id: 'after-move-2' })]);
    await settleFeed(moved);
    const fresh = expectStatus(await moved.as(BUSY_COMPANY, { url: `/v1/events/changes?after=${endOfCopy}` }), 200);
    assert.deepEqual(
      fresh.results.map((event: { id: string }) => event.id),
      ['after-move-1', 'after-move-2'],
    );
    const { rows } = await sql<{ copied: number; next: number }>`select
      (select max(feed_seq) from events where feed_xid = '0'::xid8) as copied,
      (select min(feed_seq) from events where feed_xid <> '0'::xid8) as next`.execute(moved.ctx.database.db);
    assert.ok(rows[0]!.next > rows[0]!.copied, `the feed sequence was set past the copied events: ${JSON.stringify(rows[0])}`);

    const withToken = await moved.app.inject({ url: `/v1/records/${data.recordIds[1]}`, headers: { authorization: `Bearer ${data.recordToken}` } });
    assert.equal(withToken.statusCode, 200, withToken.body);

    const replay = await moved.as(COMPANY, {
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'idempotency-key': data.webhookIdempotencyKey },
      payload: { url: `${receiver.base}/hook`, events: ['*'], description: 'CRM' },
    });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, data.webhookCreatedBody);
  });

  it('delivers the webhooks queued before the move and after it, signed with the secret the webhook was created with', { timeout: 300_000 }, async () => {
    const queued = (await sql<{ n: number }>`select count(*) as n from webhook_deliveries where status = 'pending'`.execute(moved.ctx.database.db)).rows[0]!.n;
    assert.ok(queued >= 5, `deliveries waiting in the copied outbox: ${queued}`);
    moved.ctx.webhookDelivery.start();
    const arrived = await receiver.waitFor('/hook', queued, 20_000);
    const types = arrived.map((entry) => (new Webhook(data.webhook.secret).verify(entry.body, entry.headers) as { type: string }).type);
    assert.ok(types.includes('step.completed') && types.includes('record_token.created'), types.join(', '));
    await eventually(
      async () => (await sql<{ n: number }>`select count(*) as n from webhook_deliveries where status = 'pending'`.execute(moved.ctx.database.db)).rows[0]!.n,
      (pending) => pending === 0,
    );
  });

  it('refuses a target that already holds data, and writes nothing', { timeout: 300_000 }, async () => {
    const events = await rowsInTarget(target.url, 'events');
    const again = await copyInto(target.url, sqliteFileOf(sourceDatabase), ['--quiet']);
    expectPlainFailure(again, /already holds wrs data \(in events, .*\); copy into a new, empty database \(nothing was written\)/);
    assert.equal(await rowsInTarget(target.url, 'events'), events);
  });
});

describe('wrs copy-database: a copy that cannot finish', { skip: PG_URL ? false : 'WRS_TEST_PG_URL is not set' }, () => {
  let dir: string;
  let file: string;
  before(
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'wrs-copy-faults-'));
      file = join(dir, 'wrs.db');
      const source = await createTestApp('sqlite', { database: { kind: 'sqlite', url: `sqlite:${file}`, drop: async () => undefined } });
      await ingestOk(
        source,
        COMPANY,
        Array.from({ length: 3_000 }, () => anEvent()),
      );
      await source.close();
    },
    { timeout: 120_000 },
  );
  after(() => rmSync(dir, { recursive: true, force: true }), { timeout: 120_000 });

  const withTarget = async (use: (target: TestDatabase) => Promise<void>) => {
    const target = await createTestDatabase('postgres');
    try {
      await use(target);
    } finally {
      await target.drop();
    }
  };

  it('rolls back every table when a late row cannot be stored: the target keeps no rows', { timeout: 120_000 }, async () => {
    const broken = join(dir, 'broken.db');
    copyFileSync(file, broken);
    const db = new SqliteDatabase(broken);
    // PostgreSQL text cannot hold NUL; the service never stores one, a damaged file might.
    db.prepare(`insert into webhooks (company_id, id, url, events, description, enabled, secret, created_at, updated_at)
      values ('acme', 'w1', 'http://x', '["*"]', ?, 1, 's', 't', 't')`).run('nul \u0000 inside');
    db.close();
    await withTarget(async (target) => {
      const run = await runCli(['copy-database', '--from', `sqlite:${broken}`, '--to', target.url], cliEnv(broken));
      expectRun(run, 1);
      assert.match(run.stderr, /the copy failed and nothing was committed to the target: .*0x00/);
      assert.match(run.stderr, /events: 3,000\/3,000 rows/, 'events were copied before the failure');
      assert.doesNotMatch(run.stderr, /\n\s+at /);
      assert.equal(await rowsInTarget(target.url, 'events'), 0);
    });
  });

  it("refuses a source behind this version's migrations, without migrating it or touching the target", { timeout: 120_000 }, async () => {
    const behind = join(dir, 'behind.db');
    copyFileSync(file, behind);
    const db = new SqliteDatabase(behind);
    db.exec(`delete from kysely_migration where name = '0009_webhooks'`);
    db.close();
    const hash = sha256(readFileSync(behind));
    await withTarget(async (target) => {
      const run = await runCli(['copy-database', '--from', `sqlite:${behind}`, '--to', target.url], cliEnv(behind));
      expectPlainFailure(
        run,
        /behind\.db is not at this wrs version's migrations \(pending: 0009_webhooks\); bring it up to date first with WRS_DATABASE_URL=sqlite:.*behind\.db wrs migrate/,
      );
      assert.equal(await rowsInTarget(target.url, 'events'), null, 'no schema was created');
    });
    assert.equal(sha256(readFileSync(behind)), hash);
  });
});
