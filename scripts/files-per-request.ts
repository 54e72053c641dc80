// Lists the service's source files that one warm request runs (V8's precise coverage around it):
// what a reader of that request must follow.
//
//   npx tsx scripts/files-per-request.ts [--url '/v1/events?limit=100&flow_key=flow-key-1&type=step_completed']
//     [--header 'cache-control: no-cache'] [--pg postgres://...]
//
// The service runs in this process, from src/, behind a real HTTP listener; the request is sent
// warm-up times first, then once more with coverage counted from zero.
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { createAppContext } from '../src/app-context.js';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/http/app.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: '/v1/events?limit=100&flow_key=flow-key-1&type=step_completed' },
    pg: { type: 'string' },
    warmup: { type: 'string', default: '200' },
    // Sent with the request: e.g. 'cache-control: no-cache' builds the page afresh.
    header: { type: 'string', multiple: true, default: [] },
  },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'files-per-request-secret-0123456789abcdef';
const ADMIN = 'files-per-request-admin-0123456789';
const COMPANY = 'acme';

const folder = mkdtempSync(join(tmpdir(), 'wrs-files-'));
const config = loadConfig({
  NODE_ENV: 'production',
  WRS_DATA_DIR: folder,
  ...(values.pg ? { WRS_DATABASE_URL: values.pg } : {}),
  WRS_JWT_SECRET: SECRET,
  WRS_ADMIN_TOKEN: ADMIN,
  WRS_ENCRYPTION_KEY: '00'.repeat(32),
  WRS_LOG_LEVEL: 'warn',
  WRS_PUBLIC_URL: 'http://127.0.0.1',
  WRS_RATE_LIMIT_PER_MINUTE: '0',
  // Settings of the run (e.g. WRS_FAST_PATH=false) come from this process's environment.
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('WRS_'))),
});
const ctx = await createAppContext(config);
const app = await buildApp(ctx, { logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

try {
  const events = Array.from({ length: 500 }, (_, n) => ({
    id: `evt-${n}`,
    type: n % 2 ? 'step_completed' : 'flow_started',
    flow_key: `flow-key-${n % 5}`,
    created_at: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  }));
  const ingest = await fetch(`${address}/admin/v1/companies/${COMPANY}/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(events),
  });
  if (!ingest.ok) throw new Error(`ingest answered ${ingest.status}: ${await ingest.text()}`);

  const token = await new SignJWT({ company_id: COMPANY })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  for (const header of values.header) {
    const colon = header.indexOf(':');
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  const get = async () => {
    const answer = await fetch(`${address}${values.url}`, { headers });
    await answer.arrayBuffer();
    return answer.status;
  };
  for (let n = 0; n < Number(values.warmup); n++) await get();

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await session.post('Profiler.takePreciseCoverage'); // counts from zero after this
  const status = await get();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();

  const files = result
    .filter((script) => script.url.startsWith('file://') && script.url.includes('/src/'))
    .filter((script) => script.functions.some((fn) => fn.ranges[0]!.count > 0))
    .map((script) => relative(ROOT, fileURLToPath(script.url)))
    .sort();
  console.log(`GET ${values.url} answered ${status}; it ran ${files.length} of the service's source files:`);
  for (const file of files) console.log(`  ${file}`);
} finally {
  await app.close();
  await ctx.close();
  rmSync(folder, { recursive: true, force: true });
}
