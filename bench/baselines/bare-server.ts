// Baseline: the limit of one Node process answering HTTP: a fixed ~200-byte JSON body.
import { createServer } from 'node:http';

const body = JSON.stringify({
  id: '0190b8f2-6c1e-7c3a-9d2b-4f5e6a7b8c9d',
  record_type: 'custom',
  status: 'new',
  fields: { name: 'Baseline record', amount: 1250, approved: true },
  created_at: '2026-11-21T15:04:05.123Z',
  views: ['all'],
});

createServer((request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
