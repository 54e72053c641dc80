// The record-get floors' one read: a prepared point read of the record's row by company and id
// on the driver, nothing of the service around it.
import pg from 'pg';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';

export type PointRead = (companyId: string, recordId: string) => Promise<unknown>;

export function openPointRead(url: string): PointRead {
  if (url.startsWith('sqlite:')) {
    const statement = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true }).prepare('select * from records where company_id = ? and id = ?');
    return async (companyId, recordId) => statement.get(companyId, recordId);
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (companyId, recordId) =>
    (await pool.query({ name: 'record', text: 'select * from records where company_id = $1 and id = $2', values: [companyId, recordId] })).rows[0];
}
