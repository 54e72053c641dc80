// Baseline: the limit of the data path. The same SQL as the exact-filter events scenario (or,
// without flow_key, the events-10000 scenario's page), run straight on the driver: no framework,
// no validation. RAW_PAGE=columns (the default) selects the event's columns and answers with
// JSON.stringify of the rows, as a service that serialises its rows would; RAW_PAGE=stored
// selects each event's stored JSON (the `body` column) and joins it, the fastest a raw driver
// does with this schema.
import { createServer } from 'node:http';
import pg from 'pg';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import { EVENT_COLUMNS } from '../../src/storage/tables/events.js';

const url = process.env.WRS_DATABASE_URL!;
const stored = process.env.RAW_PAGE === 'stored';
const selected = stored ? 'body' : EVENT_COLUMNS.join(', ');
// Without flow_key: the company's first 10,000 events, the events-10000 scenario's page.
const SQL_SQLITE = `select ${selected} from events where company_id = ? and flow_key = ? order by created_at asc, id asc limit 100`;
const SQL_SQLITE_LARGE = `select ${selected} from events where company_id = ? order by created_at asc, id asc limit 10000`;
const SQL_PG = `select ${selected} from events where company_id = $1 and flow_key = $2 order by created_at asc, id asc limit 100`;
const SQL_PG_LARGE = `select ${selected} from events where company_id = $1 order by created_at asc, id asc limit 10000`;

type Query = (companyId: string, flowKey: string | null) => Promise<unknown[]>;

function openQuery(): Query {
  if (url.startsWith('sqlite:')) {
    const db = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true });
    db.pragma('journal_mode = WAL');
    const statement = db.prepare(SQL_SQLITE).pluck(stored);
    const large = db.prepare(SQL_SQLITE_LARGE).pluck(stored);
    return async (companyId, flowKey) => (flowKey === null ? large.all(companyId) : statement.all(companyId, flowKey));
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (companyId, flowKey) => {
    const { rows } = flowKey === null ? await pool.query(SQL_PG_LARGE, [companyId]) : await pool.query(SQL_PG, [companyId, flowKey]);
    return stored ? rows.map((row: { body: string }) => row.body) : rows;
  };
}

const query = openQuery();

createServer((request, response) => {
  const params = new URL(request.url ?? '/', 'http://x').searchParams;
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  query(params.get('company') ?? '', params.get('flow_key')).then(
    (rows) => {
      const body = stored ? `{"count":${rows.length},"results":[${rows.join(',')}]}` : JSON.stringify({ count: rows.length, results: rows });
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    },
    (error: Error) => response.writeHead(500).end(error.message),
  );
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
