// Baseline: the limit of the record-get data path. The record's row read straight on the driver
// (a prepared point read by company and id) and answered with JSON.stringify: no framework, no
// authentication, no type lookup, no ETag.
import { createServer } from 'node:http';
import pg from 'pg';
import { SqliteDatabase } from '../../src/storage/sqlite-driver.js';

const url = process.env.WRS_DATABASE_URL!;

type Read = (companyId: string, recordId: string) => Promise<unknown>;

function openRead(): Read {
  if (url.startsWith('sqlite:')) {
    const statement = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true }).prepare('select * from records where company_id = ? and id = ?');
    return async (companyId, recordId) => statement.get(companyId, recordId);
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (companyId, recordId) =>
    (await pool.query({ name: 'record', text: 'select * from records where company_id = $1 and id = $2', values: [companyId, recordId] })).rows[0];
}

const read = openRead();

createServer((request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const params = new URL(request.url ?? '/', 'http://x').searchParams;
  read(params.get('company') ?? '', params.get('id') ?? '').then(
    (row) => {
      if (!row) return void response.writeHead(404).end();
      const body = JSON.stringify(row);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    },
    (error: Error) => response.writeHead(500).end(error.message),
  );
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
