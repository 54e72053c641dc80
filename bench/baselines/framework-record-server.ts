// Baseline: the record-get floor of the framework the service is built on. The raw point read
// (point-read.ts) served by a bare Fastify 5 app with the service's request logger (pino at
// `warn`: Fastify gives each request an id and a child logger, as in the service), one route and
// no hooks: no authentication, no type lookup, no ETag, no headers of the service's own.
import Fastify from 'fastify';
import { openPointRead } from './point-read.js';

const read = openPointRead(process.env.WRS_DATABASE_URL!);
const app = Fastify({ logger: { level: 'warn' } });

app.get('/healthz', async () => ({ status: 'ok' }));
app.get<{ Querystring: { company?: string; id?: string } }>('/', async (request, reply) => {
  const row = await read(request.query.company ?? '', request.query.id ?? '');
  if (!row) return reply.code(404).send();
  return row;
});

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
