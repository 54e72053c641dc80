// Baseline: the limit of the record-get data path. The record's row read straight on the driver
// (a prepared point read by company and id) and answered with JSON.stringify: no framework, no
// authentication, no type lookup, no ETag.
import { createServer } from 'node:http';
import { openPointRead } from './point-read.js';

const read = openPointRead(process.env.WRS_DATABASE_URL!);

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
