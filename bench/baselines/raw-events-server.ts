// Baseline: the limit of the data path. The page read straight on the driver (page-read.ts),
// served by node:http: no framework, no validation. RAW_PAGE=columns (the default) selects the
// event's columns and stringifies the rows; RAW_PAGE=stored joins each event's stored JSON.
import { createServer } from 'node:http';
import { openPageRead } from './page-read.js';

const read = openPageRead(process.env.WRS_DATABASE_URL!, { stored: process.env.RAW_PAGE === 'stored' });

createServer((request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const params = new URL(request.url ?? '/', 'http://x').searchParams;
  read(params.get('company') ?? '', params.get('flow_key')).then(
    (body) => response.writeHead(200, { 'content-type': 'application/json' }).end(body),
    (error: Error) => response.writeHead(500).end(error.message),
  );
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
