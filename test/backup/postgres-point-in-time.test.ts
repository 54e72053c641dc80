import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { anEvent, ingestOk } from '../events/event-fixtures.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createRecord, defineType, expectStatus } from '../records/fixtures.js';
import { asPostgres, freePort, giveToPostgres, postgresBinaries, startCluster, type Cluster } from './postgres-cluster.js';

const BIN = postgresBinaries();
const COMPANY = 'pitr-co';

/** The database the service uses on the primary, as a deployment would name it. */
const DATABASE = 'wrs';

const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, n) => `${prefix}-${String(n).padStart(3, '0')}`);

/** The first row of a query's answer, on a connection of its own. */
async function query<T>(url: string, text: string): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows[0] as T;
  } finally {
    await client.end();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The service on a cluster's database (migrated on start, as `wrs serve` does); the cluster keeps it. */
const serviceOn = (url: string) => createTestApp('postgres', { database: { kind: 'postgres', url, drop: async () => undefined } });

async function writeEvents(t: TestApp, eventIds: string[]): Promise<void> {
  await ingestOk(
    t,
    COMPANY,
    eventIds.map((id) => anEvent({ id })),
  );
}

describe('PostgreSQL: base backup, WAL archiving and a point-in-time restore (docs/backup.md)', {
  skip: BIN ? false : 'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin',
}, () => {
  let root: string;
  const clusters: Cluster[] = [];
  const apps: TestApp[] = [];
  const timings: Record<string, number> = {};
  const written = { beforeBase: ids('a', 40), afterBase: ids('b', 40), afterTarget: ids('c', 40) };
  const loans: Record<'beforeTarget' | 'afterTarget', string[]> = { beforeTarget: [], afterTarget: [] };
  let restored: TestApp;

  before(async () => {
    const bin = BIN!;
    const timed = async <T>(step: string, work: () => T | Promise<T>): Promise<T> => {
      const started = performance.now();
      const result = await work();
      timings[step] = Math.round(performance.now() - started);
      return result;
    };
    root = mkdtempSync(join(tmpdir(), 'wrs-pitr-'));
    const [primaryDir, archiveDir, baseDir, restoredDir] = ['primary', 'archive', 'base', 'restored'].map((name) => join(root, name)) as [
      string,
      string,
      string,
      string,
    ];
    mkdirSync(archiveDir);
    giveToPostgres(root);

    // 1. The primary: WAL archiving on, every finished segment copied to the archive.
    await timed('initdb', () => asPostgres(bin, 'initdb', ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '--no-sync']));
    appendFileSync(
      join(primaryDir, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${root}'`,
        'wal_level = replica',
        'archive_mode = on',
        `archive_command = 'test ! -f ${archiveDir}/%f && cp %p ${archiveDir}/%f.part && mv ${archiveDir}/%f.part ${archiveDir}/%f'`,
        // Only to keep the test quick; never in a deployment.
        'fsync = off',
        '',
      ].join('\n'),
    );
    const primaryPort = await freePort();
    const primary = await timed('start primary', () => startCluster(bin, primaryDir, primaryPort));
    clusters.push(primary);
    await query(primary.url('postgres'), `create database ${DATABASE}`);

    // 2. The service writes, a base backup is taken, the service writes more.
    const service = await serviceOn(primary.url(DATABASE));
    apps.push(service);
    await defineType(service, COMPANY, 'loan');
    await writeEvents(service, written.beforeBase);
    loans.beforeTarget.push((await createRecord(service, COMPANY, 'loan')).id);
    // --no-sync only keeps the test quick (4 s less here); the recipe flushes the backup to disk.
    await timed('pg_basebackup', () =>
      asPostgres(bin, 'pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primaryPort),
        '-U',
        'postgres',
        '-D',
        baseDir,
        '-X',
        'stream',
        '--checkpoint=fast',
        '--no-sync',
      ]),
    );
    await writeEvents(service, written.afterBase);
    loans.beforeTarget.push((await createRecord(service, COMPANY, 'loan')).id);

    // 3. The moment to restore to, on the server's clock; then writes that must not come back.
    const { target } = await query<{ target: string }>(primary.url('postgres'), 'select clock_timestamp()::text as target');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writeEvents(service, written.afterTarget);
    loans.afterTarget.push((await createRecord(service, COMPANY, 'loan')).id);
    await service.close();
    apps.pop();

    // Recovery must find a commit after the target in the archive to know where to stop.
    const { segment } = await query<{ segment: string }>(primary.url('postgres'), 'select pg_walfile_name(pg_switch_wal()) as segment');
    await timed('archive the last segment', () => until(`${segment} is archived`, async () => existsSync(join(archiveDir, segment))));
    primary.stop();

    // 4. A third cluster from the base backup, replaying the archive up to the target.
    await timed('restore to the target time', async () => {
      cpSync(baseDir, restoredDir, { recursive: true });
      chmodSync(restoredDir, 0o700);
      appendFileSync(
        join(restoredDir, 'postgresql.auto.conf'),
        [
          `restore_command = 'cp ${archiveDir}/%f %p'`,
          `recovery_target_time = '${target}'`,
          "recovery_target_action = 'promote'",
          // The restored cluster must not archive into the primary's archive.
          'archive_mode = off',
          '',
        ].join('\n'),
      );
      writeFileSync(join(restoredDir, 'recovery.signal'), '');
      giveToPostgres(restoredDir);
      const restoredCluster = startCluster(bin, restoredDir, await freePort());
      clusters.push(restoredCluster);
      await until('the restored cluster is promoted', async () => {
        const { recovering } = await query<{ recovering: boolean }>(restoredCluster.url('postgres'), 'select pg_is_in_recovery() as recovering');
        return !recovering;
      });
      restored = await serviceOn(restoredCluster.url(DATABASE));
      apps.push(restored);
    });
  });

  after(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    for (const cluster of clusters) cluster.stop();
    if (root) rmSync(root, { recursive: true, force: true });
    console.log(`point-in-time restore timings (ms): ${JSON.stringify(timings)}`);
  });

  it('the service on the restored cluster serves exactly the events written before the target time', async () => {
    const answer = expectStatus(await restored.as(COMPANY, { method: 'GET', url: '/v1/events?limit=500' }), 200);
    const served = (answer as { results: { id: string }[] }).results.map((event) => event.id).sort();
    assert.deepEqual(served, [...written.beforeBase, ...written.afterBase].sort());
  });

  it('and exactly the records created before it', async () => {
    const answer = expectStatus(await restored.as(COMPANY, { method: 'GET', url: '/v1/records?limit=100' }), 200);
    const served = (answer as { results: { id: string }[] }).results.map((record) => record.id).sort();
    assert.deepEqual(served, [...loans.beforeTarget].sort());
    expectStatus(await restored.as(COMPANY, { method: 'GET', url: `/v1/records/${loans.afterTarget[0]}` }), 404);
  });

  it('and takes new writes once promoted', async () => {
    await writeEvents(restored, ['d-000']);
    const answer = expectStatus(await restored.as(COMPANY, { method: 'GET', url: '/v1/events?limit=500' }), 200);
    assert.equal((answer as { count: number }).count, written.beforeBase.length + written.afterBase.length + 1);
  });
});
