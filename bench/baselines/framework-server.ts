// Baseline: the floors of the framework the service is built on. The raw reads (point-read.ts,
// page-read.ts with each event's stored JSON joined) served by a bare Fastify 5 app with the
// service's request logger (pino at `warn`: Fastify gives each request an id and a child logger,
// as in the service), two routes and no hooks: no authentication, no type lookup, no validation,
// no ETag, no headers of the service's own.
//   GET /?company=&id=            the record get's row
//   GET /events?company=&flow_key= the events-exact page
import Fastify from 'fastify';
import { openPageRead } from './page-read.js';
import { openPointRead } from './point-read.js';

const url = process.env.WRS_DATABASE_URL!;
const readRecord = openPointRead(url);
const readPage = openPageRead(url, { stored: true });
const app = Fastify({ logger: { level: 'warn' } });

app.get('/healthz', async () => ({ status: 'ok' }));
app.get<{ Querystring: { company?: string; id?: string } }>('/', async (request, reply) => {
  const row = await readRecord(request.query.company ?? '', request.query.id ?? '');
  if (!row) return reply.code(404).send();
  return row;
});
app.get<{ Querystring: { company?: string; flow_key?: string } }>('/events', async (request, reply) => {
  const body = await readPage(request.query.company ?? '', request.query.flow_key ?? null);
  return reply.type('application/json').send(body);
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
