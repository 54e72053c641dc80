// Baseline: the limit of storing events on this machine. The bench's events written straight
// on the driver into the service's own schema (its migrations: the primary key, the feed
// positions, every index the filters need and each event's stored JSON, serialised before the
// clock starts), with nothing else: no HTTP, no parsing, no
// validation, no `__contains` dictionary. SQLite: one prepared single-row insert per event, a
// transaction per 20,000; PostgreSQL: COPY, its fastest way in.
// Usage: node --import tsx bench/baselines/raw-ingest.ts <database URL of an empty database> <events>
// Prints {"events": n, "seconds": s, "eventsPerSecond": r}.
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import { CopyData } from '../../src/storage/postgres-copy.js';
import { EVENT_COLUMNS } from '../../src/storage/tables/events.js';
import { eventJson } from '../../src/domain/events/event-json.js';
import type { StoredEvent } from '../../src/domain/events/event.js';
import { companyEvents, companyId, eventsPerCompany, FULL_PLAN } from '../lib/data.js';

const [url, eventsArgument] = process.argv.slice(2);
// The fastest of the sizes tried on SQLite (1,000 rows: 28,700 events/s; 20,000: 45,400; all in one: 40,400).
const ROWS_PER_TRANSACTION = 20_000;
if (!url || !eventsArgument) throw new Error('usage: raw-ingest.ts <database URL> <events>');
const plan = { ...FULL_PLAN, events: Number(eventsArgument) };

const database = openDatabase(url);
await migrateToLatest(database.db);
await database.close();

const WRITTEN_COLUMNS = [...EVENT_COLUMNS, 'body'];

/** Every event of the plan as a row of WRITTEN_COLUMNS values (the bench's own data), company by company. */
function* rows(): Generator<unknown[]> {
  const counts = eventsPerCompany(plan);
  for (let company = 0; company < counts.length; company++) {
    for (const event of companyEvents(company, counts[company]!)) {
      const row = { version_object: null, ...event, company_id: companyId(company) } as Record<string, unknown>;
      yield [...EVENT_COLUMNS.map((column) => row[column] ?? null), eventJson(row as unknown as StoredEvent)];
    }
  }
}

// Made before the clock starts: only the database's work is timed. The COPY text goes to a file
// (10,000,000 events make about 13 GB of it, beyond a Node heap), read back as the clock runs.
const sqlite = url.startsWith('sqlite:');
const prepared = sqlite ? [...rows()] : await spoolCopyText();
const started = performance.now();
const written = sqlite ? writeSqlite(url.slice('sqlite:'.length), prepared as unknown[][]) : await writePostgres(url, prepared as string);
const seconds = (performance.now() - started) / 1000;
if (!sqlite) rmSync(dirname(prepared as string), { recursive: true, force: true });
console.log(JSON.stringify({ events: written, seconds, eventsPerSecond: written / seconds }));

function writeSqlite(path: string, values: unknown[][]): number {
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const columns = [...WRITTEN_COLUMNS, 'feed_seq'];
  const insert = db.prepare(`insert into events (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`);
  const excluded = EVENT_COLUMNS.indexOf('excluded');
  const batch = db.transaction((start: number, end: number) => {
    for (let i = start; i < end; i++) {
      const row = values[i]!;
      row[excluded] = row[excluded] ? 1 : 0;
      row.push(i + 1);
      insert.run(row);
    }
  });
  for (let start = 0; start < values.length; start += ROWS_PER_TRANSACTION) batch(start, Math.min(start + ROWS_PER_TRANSACTION, values.length));
  db.close();
  return values.length;
}

/** The rows as COPY text (written as the service writes it), a thousand rows a chunk. */
function* copyChunks(): Generator<Buffer> {
  let chunk = new CopyData();
  let rowsInChunk = 0;
  for (const row of rows()) {
    chunk.addRow(row);
    if (++rowsInChunk === 1000) {
      yield chunk.toBuffer();
      chunk = new CopyData();
      rowsInChunk = 0;
    }
  }
  yield chunk.toBuffer();
}

/** The COPY text of every row, in a file of a fresh temporary folder. */
async function spoolCopyText(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'wrs-raw-ingest-')), 'events.copy');
  await pipeline(Readable.from(copyChunks()), createWriteStream(path));
  return path;
}

async function writePostgres(connectionString: string, copyTextPath: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await pipeline(createReadStream(copyTextPath), client.query(copyFrom(`copy events (${WRITTEN_COLUMNS.join(', ')}) from stdin`)));
    return Number((await client.query('select count(*) as n from events')).rows[0].n);
  } finally {
    await client.end();
  }
}
