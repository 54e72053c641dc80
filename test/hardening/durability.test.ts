import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import pg from 'pg';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../helpers/databases.js';
import { signUserToken, TEST_ADMIN_TOKEN } from '../helpers/test-app.js';
import { LOAN_TYPE, VALID_LOAN } from '../records/fixtures.js';
import { httpRequest } from './helpers/http.js';
import { startServer, type ServerProcess } from './helpers/server-process.js';

/**
 * `wrs serve` as a real process, killed with SIGKILL in the middle of a stream of writes:
 * record creates from several clients, event ingest batches (some refused), and one large
 * ingest whose body is still arriving, its transaction already writing. After a restart on
 * the same database every acknowledged write is there, no batch is there in part, nothing is
 * there that was never sent, and the refused and the interrupted batches left nothing.
 */
const COMPANY = 'durable-co';
const BATCH_EVENTS = 50;
/** Events of the interrupted ingest: well past the service's 20,000-event read-ahead. */
const BIG_EVENTS = 60_000;
const PADDING = 'p'.repeat(400);

const listening = (line: { msg?: string }) => String(line.msg).startsWith('Server listening');
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

interface Ledger {
  /** Records answered 201: id -> borrower. */
  readonly ackedRecords: Map<string, string>;
  /** Every borrower sent, answered or not. */
  readonly sentBorrowers: Set<string>;
  /** Ingest batches answered 200, refused with 400, and without an answer. */
  readonly ackedBatches: string[];
  readonly refusedBatches: string[];
  readonly unansweredBatches: string[];
}

const eventLine = (batch: string, i: number, extra = '') => `{"id":"${batch}-${i}","type":"durability_test","flow_key":"${batch}","flow_session":${i}${extra}}`;

function batchBody(batch: string, refused: boolean): string {
  const lines = Array.from({ length: BATCH_EVENTS }, (_, i) => eventLine(batch, i));
  // A refused batch breaks only at its last event, after the others were read and checked.
  if (refused) lines[BATCH_EVENTS - 1] = `{"id":"${batch}-last","type":42}`;
  return `${lines.join('\n')}\n`;
}

async function recordWriter(port: number, token: string, writer: number, ledger: Ledger, running: () => boolean): Promise<void> {
  for (let n = 0; running(); n++) {
    const borrower = `w${writer}-${n}`;
    ledger.sentBorrowers.add(borrower);
    try {
      const response = await httpRequest(port, 'POST', '/v1/records/loan', {
        headers: { authorization: `Bearer ${token}` },
        body: { ...VALID_LOAN, f_borrower: borrower },
      });
      if (response.status === 201) ledger.ackedRecords.set(response.json().id, borrower);
    } catch {
      return; // the server is gone
    }
  }
}

async function ingestWriter(port: number, ledger: Ledger, running: () => boolean): Promise<void> {
  for (let n = 0; running(); n++) {
    const batch = `batch${n}`;
    const refused = n % 4 === 3;
    try {
      const response = await httpRequestText(port, `/admin/v1/companies/${COMPANY}/events`, batchBody(batch, refused));
      if (response.status === 200) {
        assert.deepEqual(JSON.parse(response.body), { ingested: BATCH_EVENTS });
        ledger.ackedBatches.push(batch);
      } else {
        assert.equal(response.status, 400, response.body);
        ledger.refusedBatches.push(batch);
      }
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      ledger.unansweredBatches.push(batch);
      return;
    }
  }
}

function httpRequestText(port: number, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { ...ADMIN, 'content-type': 'application/x-ndjson', connection: 'close' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The status of the interrupted ingest, should the server ever answer it. */
let interruptedIngestAnswer: number | undefined;

/**
 * Starts an ingest of BIG_EVENTS events and sends all but the end of its body, then holds it
 * open. Resolves once the server has read well past its read-ahead, so its transaction is open
 * and has written events that must not survive.
 */
async function startInterruptedIngest(port: number): Promise<void> {
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/admin/v1/companies/${COMPANY}/events`,
    agent: false,
    headers: { ...ADMIN, 'content-type': 'application/x-ndjson' },
  });
  req.on('error', () => undefined);
  req.on('response', (response) => {
    interruptedIngestAnswer = response.statusCode ?? 0;
  });
  const chunkEvents = 1000;
  for (let start = 0; start < BIG_EVENTS; start += chunkEvents) {
    const lines = Array.from({ length: chunkEvents }, (_, i) => eventLine('big', start + i, `,"text":"${PADDING}"`)).join('\n');
    // Waiting for each chunk to drain keeps at most the socket buffers (a few MiB) unread by the server.
    if (!req.write(`${lines}\n`)) await new Promise((resolve) => req.once('drain', resolve));
  }
}

/**
 * Whether another connection sees a write transaction of the server open: on SQLite the write
 * lock is taken (BEGIN IMMEDIATE), on PostgreSQL a session sits in a transaction that has
 * written (it has a transaction ID).
 */
async function writeTransactionOpen(database: TestDatabase): Promise<boolean> {
  if (database.kind === 'sqlite') {
    const connection = new SqliteDatabase(database.url.slice('sqlite:'.length), { timeout: 0 });
    try {
      connection.exec('BEGIN IMMEDIATE');
      connection.exec('ROLLBACK');
      return false;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
      throw error;
    } finally {
      connection.close();
    }
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as open from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_xid is not null and state like 'idle in transaction%'`,
    );
    return rows[0].open > 0;
  } finally {
    await client.end();
  }
}

async function allRecords(port: number, token: string): Promise<Array<{ id: string; fields: { Borrower: string } }>> {
  const records = [];
  let path: string | null = '/v1/records?limit=100';
  while (path) {
    const response = await httpRequest(port, 'GET', path, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, response.body);
    const page = response.json();
    records.push(...page.results);
    path = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
  }
  return records;
}

async function eventCountsByBatch(port: number, token: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let page = 1; ; page++) {
    const response = await httpRequest(port, 'GET', `/v1/events?limit=10000&page=${page}&order_by=id`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, response.body.slice(0, 300));
    const { results } = response.json() as { results: Array<{ flow_key: string }> };
    for (const event of results) counts.set(event.flow_key, (counts.get(event.flow_key) ?? 0) + 1);
    if (results.length < 10_000) return counts;
  }
}

describeEachDatabase('durability: SIGKILL in the middle of a stream of writes', (kind) => {
  let database: TestDatabase;
  let dir: string;
  const servers: ServerProcess[] = [];
  let env: Record<string, string>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wrs-durability-'));
    database = kind === 'sqlite' ? { kind, url: `sqlite:${join(dir, 'wrs.db')}`, drop: async () => undefined } : await createTestDatabase(kind);
    env = {
      WRS_DATABASE_URL: database.url,
      WRS_RATE_LIMIT_PER_MINUTE: '0',
      WRS_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0',
    };
  });
  after(async () => {
    for (const server of servers) await server.dispose();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function serve(): Promise<ServerProcess> {
    const server = await startServer(env);
    servers.push(server);
    await server.waitForLog(listening, 'the server to listen');
    return server;
  }

  it('keeps every acknowledged write and no partial batch across a SIGKILL and a restart', { timeout: 300_000 }, async (context) => {
    const token = await signUserToken({ company_id: COMPANY, sub: 'writer' });
    const first = await serve();
    const defined = await httpRequest(first.port, 'PUT', `/admin/v1/companies/${COMPANY}/record-types/loan`, { headers: ADMIN, body: LOAN_TYPE });
    assert.equal(defined.status, 201, defined.body);

    const ledger: Ledger = { ackedRecords: new Map(), sentBorrowers: new Set(), ackedBatches: [], refusedBatches: [], unansweredBatches: [] };
    let running = true;
    const writers = [
      ...[0, 1, 2].map((writer) => recordWriter(first.port, token, writer, ledger, () => running)),
      ingestWriter(first.port, ledger, () => running),
    ];
    // Let the stream build up before the interrupted ingest and the kill.
    while (ledger.ackedRecords.size < 150 || ledger.ackedBatches.length < 8 || ledger.refusedBatches.length < 2) {
      assert.equal(first.child.exitCode, null, 'the server is up');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await startInterruptedIngest(first.port);
    let open = false;
    for (let attempt = 0; attempt < 200 && !open; attempt++) {
      open = await writeTransactionOpen(database);
      if (!open) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(open, 'the interrupted ingest has its transaction open, with events written, when the server is killed');
    first.child.kill('SIGKILL');
    assert.equal(interruptedIngestAnswer, undefined, 'the interrupted ingest was never answered: its body never ended');
    const exit = await first.exited;
    assert.equal(exit.signal, 'SIGKILL');
    running = false;
    await Promise.all(writers);

    const second = await serve();
    const records = await allRecords(second.port, token);
    const stored = new Map(records.map((record) => [record.id, record.fields.Borrower]));
    for (const [id, borrower] of ledger.ackedRecords) assert.equal(stored.get(id), borrower, `acknowledged record ${id} (${borrower}) is there`);
    const borrowers = records.map((record) => record.fields.Borrower);
    assert.equal(new Set(borrowers).size, borrowers.length, 'no record stored twice');
    for (const borrower of borrowers) assert.ok(ledger.sentBorrowers.has(borrower), `record ${borrower} was sent`);

    const counts = await eventCountsByBatch(second.port, token);
    for (const batch of ledger.ackedBatches) assert.equal(counts.get(batch), BATCH_EVENTS, `acknowledged batch ${batch} is whole`);
    for (const batch of ledger.refusedBatches) assert.equal(counts.get(batch), undefined, `refused batch ${batch} left nothing`);
    for (const batch of ledger.unansweredBatches) {
      assert.ok([undefined, BATCH_EVENTS].includes(counts.get(batch)), `unanswered batch ${batch} is all there or not at all`);
    }
    assert.equal(counts.get('big'), undefined, 'the ingest killed mid-stream left nothing');
    const known = new Set([...ledger.ackedBatches, ...ledger.refusedBatches, ...ledger.unansweredBatches, 'big']);
    for (const batch of counts.keys()) assert.ok(known.has(batch), `events of ${batch} were sent`);

    if (kind === 'sqlite') {
      const connection = new SqliteDatabase(database.url.slice('sqlite:'.length), { readonly: true });
      try {
        assert.equal(connection.pragma('integrity_check', { simple: true }), 'ok');
      } finally {
        connection.close();
      }
    }
    context.diagnostic(
      `acknowledged: ${ledger.ackedRecords.size} records (${records.length} stored), ${ledger.ackedBatches.length} batches; ` +
        `refused: ${ledger.refusedBatches.length} batches; unanswered: ${ledger.unansweredBatches.length} batches; ` +
        `interrupted: ${BIG_EVENTS} events, ${counts.get('big') ?? 0} stored`,
    );
  });
});
