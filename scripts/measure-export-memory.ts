// Measures the peak RSS of exporting (and importing) a company of many events, against a small
// one: the export streams in pages, so its memory should not grow with the company.
//
//   npx tsx scripts/measure-export-memory.ts [--events 1000000] [--pg postgres://...]
//
// Not part of npm test: loading a million events takes about a minute. Each export and import
// runs in a child process of its own, whose peak RSS (getrusage's maxrss) it reports.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createAppContext, type AppContext } from '../src/app-context.js';
import { loadConfig } from '../src/config/config.js';

const SCRIPT = fileURLToPath(import.meta.url);
const BIG = 'bigco';
const SMALL = 'smallco';

function configFor(url: string) {
  return loadConfig({
    NODE_ENV: 'development',
    WRS_DATABASE_URL: url,
    WRS_JWT_SECRET: 'measure-secret-0123456789abcdef0123456789abcdef',
    WRS_ADMIN_TOKEN: 'measure-admin-token-0123456789',
    WRS_ENCRYPTION_KEY: '00'.repeat(32),
    WRS_LOG_LEVEL: 'silent',
  });
}

async function withContext<T>(url: string, use: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await createAppContext(configFor(url), { pdfWorkers: 1 });
  try {
    return await use(ctx);
  } finally {
    await ctx.close();
  }
}

async function* eventLines(count: number): AsyncGenerator<Buffer> {
  const start = Date.UTC(2025, 0, 1);
  for (let base = 0; base < count; base += 1000) {
    let text = '';
    for (let i = base; i < Math.min(count, base + 1000); i++) {
      const at = new Date(start + i * 1000).toISOString();
      text += `${JSON.stringify({
        id: `evt-${String(i).padStart(8, '0')}`,
        connection_id: `conn-${i % 50}`,
        connection_key: 'salesforce',
        created_at: at,
        excluded: i % 11 === 0,
        flow_id: `flow-${i % 200}`,
        flow_key: `flow-key-${i % 200}`,
        flow_session: i % 5000,
        like_value: i % 3 === 0 ? null : i / 7,
        seconds_active: (i % 600) / 4,
        seconds_running: i % 3600,
        selected_decision: i % 5 === 0 ? 'Approve' : null,
        step_key: `step-${i % 30}`,
        text: i % 4 === 0 ? `a note about event ${i}` : null,
        type: 'user_flow_step_completed',
        updated_at: at,
        user_id: `user-${i % 1000}`,
        version_id: `ver-${i % 10}`,
        version_key: `v${i % 10}`,
      })}\n`;
    }
    yield Buffer.from(text);
  }
}

interface Measured {
  readonly seconds: number;
  readonly maxRssMb: number;
  readonly bytes?: number;
}

/** Runs this script in a child process for one export or import, and reads what it measured. */
function child(args: string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [...process.execArgv, SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    process_.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    process_.on('exit', (status) =>
      status === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Measured) : reject(new Error(`child ${args[0]} exited ${status}`)),
    );
  });
}

function measured(started: number, bytes?: number): Measured {
  return { seconds: Math.round((performance.now() - started) / 100) / 10, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), bytes };
}

async function createPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(): Promise<void> {
  const [mode, url, company, file] = process.argv.slice(2);
  if (mode === '--child-export') {
    const started = performance.now();
    await withContext(url!, (ctx) => pipeline(Readable.from(ctx.companyExporter.lines(company!)), createWriteStream(file!)));
    console.log(JSON.stringify(measured(started, statSync(file!).size)));
    return;
  }
  if (mode === '--child-import') {
    const started = performance.now();
    await withContext(url!, (ctx) => ctx.companyImporter.importFile(() => createReadStream(file!)));
    console.log(JSON.stringify(measured(started)));
    return;
  }

  const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' }, pg: { type: 'string' } } });
  const events = Number(values.events);
  const dir = mkdtempSync(join(tmpdir(), 'wrs-export-memory-'));
  try {
    const sourceUrl = values.pg ? await createPostgresDatabase(values.pg, 'wrs_export_memory_source') : `sqlite:${join(dir, 'source.db')}`;
    const targetUrl = values.pg ? await createPostgresDatabase(values.pg, 'wrs_export_memory_target') : `sqlite:${join(dir, 'target.db')}`;
    let started = performance.now();
    await withContext(sourceUrl, async (ctx) => {
      await ctx.events.ingest(SMALL, Readable.from(eventLines(10_000)), { format: 'ndjson' });
      await ctx.events.ingest(BIG, Readable.from(eventLines(events)), { format: 'ndjson' });
    });
    console.log(
      `loaded ${events.toLocaleString('en-US')} + 10,000 events into ${values.pg ? 'PostgreSQL' : 'SQLite'} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const [company, count] of [
      [SMALL, 10_000],
      [BIG, events],
    ] as const) {
      const file = join(dir, `${company}.ndjson`);
      const exported = await child(['--child-export', sourceUrl, company, file]);
      console.log(
        `export of ${count.toLocaleString('en-US')} events: ${exported.seconds} s, ${(exported.bytes! / 1_048_576).toFixed(0)} MiB, peak RSS ${exported.maxRssMb} MiB`,
      );
      started = performance.now();
      const imported = await child(['--child-import', targetUrl, company, file]);
      console.log(`import of ${count.toLocaleString('en-US')} events: ${imported.seconds} s, peak RSS ${imported.maxRssMb} MiB`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
