// Baseline: the limit of sending an event page at all. The service's own answers to the
// events-exact page and the 10,000-event page, read once at start, answered from memory as
// prebuilt bytes: no database, no serialisation, no framework.
import { createServer } from 'node:http';

const source = process.env.WRS_PREBUILT_SOURCE!;
const token = process.env.WRS_PREBUILT_TOKEN!;
const pages = JSON.parse(process.env.WRS_PREBUILT_PAGES!) as Record<string, string>;

const bodies = new Map<string, Buffer>();
for (const [name, path] of Object.entries(pages)) {
  const response = await fetch(source + path, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  bodies.set(`/${name}`, Buffer.from(await response.arrayBuffer()));
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
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
