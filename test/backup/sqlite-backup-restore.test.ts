import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { cliEnv, parseStartScreen, runCli, startServe, type CliRun, type RunningProcess } from '../helpers/cli-process.js';
import { serviceClient } from './service-client.js';

const COMPANY = 'backup-co';
const EVENT_WRITERS = 3;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Write {
  readonly id: string;
  readonly sentAt: number;
  readonly ackedAt: number;
}

function expectRun(run: CliRun, status: number): CliRun {
  assert.equal(run.status, status, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

async function serveOn(database: string): Promise<{ server: RunningProcess; base: string }> {
  const server = startServe(cliEnv(database, { PORT: '0' }));
  try {
    return { server, base: (await server.waitFor(parseStartScreen)).base };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

function integrityOf(path: string): string {
  const db = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** The backup and the two restores run the real CLI in a process of its own; the refusals run in this process. */
describe('wrs backup and wrs restore: a SQLite database backed up while several clients write to it', () => {
  let dir: string;
  let live: string;
  let backupFile: string;
  let server: RunningProcess | undefined;
  const events: Write[] = [];
  const loans: Write[] = [];
  let backupStartedAt = 0;
  let backupEndedAt = 0;
  let backupRun: CliRun;
  let restoredBytes: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-backup-'));
    live = join(dir, 'live', 'wrs.db');
    backupFile = join(dir, 'backups', 'wrs-backup.db');
    let base: string;
    ({ server, base } = await serveOn(live));
    const client = serviceClient(base, COMPANY);
    await client.defineLoanType();

    let writing = true;
    const clock = () => performance.now();
    const eventWriter = async (writer: number) => {
      for (let n = 0; writing; n++) {
        const id = `w${writer}-${String(n).padStart(5, '0')}`;
        const sentAt = clock();
        if (await client.ingestEvent(id)) events.push({ id, sentAt, ackedAt: clock() });
      }
    };
    const loanWriter = async () => {
      while (writing) {
        const sentAt = clock();
        const id = await client.createLoan();
        if (id) loans.push({ id, sentAt, ackedAt: clock() });
      }
    };
    const writers = [...Array.from({ length: EVENT_WRITERS }, (_, writer) => eventWriter(writer)), loanWriter()];
    try {
      while (events.length < 90 || loans.length < 15) await new Promise((resolve) => setTimeout(resolve, 20));
      backupStartedAt = clock();
      backupRun = await runCli(['backup', backupFile], cliEnv(live));
      backupEndedAt = clock();
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      writing = false;
      await Promise.all(writers);
    }
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a verified copy while the writes go on, and says its size and how long it took', () => {
    expectRun(backupRun, 0);
    assert.match(
      backupRun.stdout,
      /^backed up .*wrs\.db to .*wrs-backup\.db: \d+\.\d MB in \d+\.\d\d s \(copy \d+\.\d\d s; verified in \d+\.\d\d s: integrity_check ok, a wrs database\)\n$/,
    );
    assert.ok(existsSync(backupFile));
    const during = [...events, ...loans].filter((write) => write.ackedAt > backupStartedAt && write.sentAt < backupEndedAt);
    assert.ok(during.length > 0, 'writes were acknowledged while the backup ran');
  });

  it('never overwrites a file, and refuses to restore over a database a service has open', async () => {
    const again = expectRun(await runCliInProcess(['backup', backupFile], cliEnv(live)), 1);
    assert.match(again.stderr, /^no backup written: .*wrs-backup\.db already exists/);
    const refused = expectRun(await runCliInProcess(['restore', backupFile], cliEnv(live)), 1);
    assert.equal(refused.stderr, `nothing restored: a process has ${live} open (a running wrs serve, or another wrs command); stop it, then restore\n`);
    assert.equal(refused.stdout, '');
  });

  it('restored into a fresh location: consistent, and the service serves every write acknowledged before the backup began', async () => {
    const fresh = join(dir, 'fresh', 'wrs.db');
    const run = expectRun(await runCli(['restore', backupFile], cliEnv(fresh)), 0);
    assert.match(
      run.stdout,
      /^restored .*wrs-backup\.db to .*fresh\/wrs\.db \(\d+\.\d MB, integrity check ok\) in \d+\.\d\d s, where there was no database\n$/,
    );
    assert.equal(integrityOf(fresh), 'ok');
    await expectServedFrom(fresh);
  });

  it('restored in place once the service stopped: the old write-ahead log is gone, and writes after the backup are not there', async () => {
    await server!.stop();
    server = undefined;
    const run = expectRun(await runCli(['restore', backupFile], cliEnv(live)), 0);
    assert.match(run.stdout, /replacing the database that was there\n$/);
    for (const sidecar of ['-wal', '-shm', '-journal']) assert.equal(existsSync(`${live}${sidecar}`), false, `${sidecar} removed`);
    assert.equal(integrityOf(live), 'ok');
    await expectServedFrom(live);
    restoredBytes = sha256(readFileSync(live));
  });

  it('refuses a file that is not a sound wrs database, and changes nothing', async () => {
    const other = join(dir, 'other.db');
    const db = new SqliteDatabase(other);
    db.exec('create table things (id integer primary key)');
    db.close();
    const refused = expectRun(await runCliInProcess(['restore', other], cliEnv(live)), 1);
    assert.match(refused.stderr, /^nothing restored: .*other\.db is not a wrs database/);
    const missing = expectRun(await runCliInProcess(['restore', join(dir, 'missing.db')], cliEnv(live)), 1);
    assert.match(missing.stderr, /^nothing restored: no backup file at /);
    assert.equal(sha256(readFileSync(live)), restoredBytes, 'the database in place is unchanged');
  });

  it('says on PostgreSQL that the commands are for SQLite, and where the recipe is', async () => {
    for (const command of ['backup', 'restore']) {
      const run = expectRun(await runCliInProcess([command, join(dir, 'x.db')], { ...cliEnv(live), WRS_DATABASE_URL: 'postgres://wrs@127.0.0.1:1/wrs' }), 1);
      assert.match(run.stderr, new RegExp(`^wrs ${command} is for a SQLite database; .* PostgreSQL\\. .*pg_basebackup.* docs/backup\\.md`));
    }
  });

  /** A real `wrs serve` on the restored file answers every write acknowledged before the backup, and none sent after it ended. */
  async function expectServedFrom(database: string): Promise<void> {
    const restored = await serveOn(database);
    try {
      const client = serviceClient(restored.base, COMPANY);
      const [eventIds, loanIds] = [new Set(await client.eventIds()), new Set(await client.loanIds())];
      for (const [writes, served, kind] of [
        [events, eventIds, 'event'],
        [loans, loanIds, 'record'],
      ] as const) {
        const before = writes.filter((write) => write.ackedAt < backupStartedAt);
        assert.ok(before.length > 0);
        const lost = before.filter((write) => !served.has(write.id));
        assert.deepEqual(lost, [], `every ${kind} acknowledged before the backup began is restored`);
        const later = writes.filter((write) => write.sentAt > backupEndedAt && served.has(write.id));
        assert.deepEqual(later, [], `no ${kind} sent after the backup ended is in it`);
      }
    } finally {
      await restored.server.stop();
    }
  }
});
