// The page floors' one read: the SQL of the exact-filter events scenario (or, without flow_key,
// the events-10000 scenario's page) run straight on the driver, and the answer's body. `stored`
// selects each event's stored JSON (the `body` column) and joins it, the fastest a raw driver
// does with this schema; otherwise the event's columns are selected and the rows stringified, as
// a service that serialises its rows would.
import pg from 'pg';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';
import { EVENT_COLUMNS } from '../../src/storage/tables/events.js';

/** The answer's JSON text: `{"count":N,"results":[...]}`. */
export type PageRead = (companyId: string, flowKey: string | null) => Promise<string>;

export function openPageRead(url: string, options: { stored: boolean }): PageRead {
  const { stored } = options;
  const selected = stored ? 'body' : EVENT_COLUMNS.join(', ');
  const body = (rows: unknown[]) => (stored ? `{"count":${rows.length},"results":[${rows.join(',')}]}` : JSON.stringify({ count: rows.length, results: rows }));

  if (url.startsWith('sqlite:')) {
    const db = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true });
    db.pragma('journal_mode = WAL');
    const exact = db.prepare(`select ${selected} from events where company_id = ? and flow_key = ? order by created_at asc, id asc limit 100`).pluck(stored);
    const large = db.prepare(`select ${selected} from events where company_id = ? order by created_at asc, id asc limit 10000`).pluck(stored);
    return async (companyId, flowKey) => body(flowKey === null ? large.all(companyId) : exact.all(companyId, flowKey));
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const exactSql = `select ${selected} from events where company_id = $1 and flow_key = $2 order by created_at asc, id asc limit 100`;
  const largeSql = `select ${selected} from events where company_id = $1 order by created_at asc, id asc limit 10000`;
  return async (companyId, flowKey) => {
    const { rows } = flowKey === null ? await pool.query(largeSql, [companyId]) : await pool.query(exactSql, [companyId, flowKey]);
    return body(stored ? rows.map((row: { body: string }) => row.body) : rows);
  };
}
