// Baseline: the limit of sending an event page at all. The service's own answers to the
// events-exact page and the 10,000-event page, read once at start, answered from memory as
// prebuilt bytes: no database, no serialisation, no framework.
// With WRS_PREBUILT_VERSION_DB (a database URL) and WRS_PREBUILT_COMPANY, every answer first
// reads that company's data version on the driver: the least a kept page costs when any write,
// of any replica, must be seen by the next request.
import { createServer } from 'node:http';
import pg from 'pg';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';

const source = process.env.WRS_PREBUILT_SOURCE!;
const token = process.env.WRS_PREBUILT_TOKEN!;
const pages = JSON.parse(process.env.WRS_PREBUILT_PAGES!) as Record<string, string>;

const bodies = new Map<string, Buffer>();
for (const [name, path] of Object.entries(pages)) {
  const response = await fetch(source + path, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  bodies.set(`/${name}`, Buffer.from(await response.arrayBuffer()));
}

const readVersion = openVersionReader(process.env.WRS_PREBUILT_VERSION_DB, process.env.WRS_PREBUILT_COMPANY ?? '');

function openVersionReader(url: string | undefined, company: string): (() => Promise<unknown>) | undefined {
  if (url === undefined) return undefined;
  if (url.startsWith('sqlite:')) {
    const statement = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true }).prepare('select version from data_versions where company_id = ?');
    return async () => statement.get(company);
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async () => (await pool.query({ name: 'version', text: 'select version from data_versions where company_id = $1', values: [company] })).rows[0];
}

createServer((request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const body = bodies.get(request.url ?? '');
  if (!body) {
    response.writeHead(404).end();
    return;
  }
  const send = () => response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
  if (!readVersion) return send();
  readVersion().then(send, (error: Error) => response.writeHead(500).end(error.message));
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
