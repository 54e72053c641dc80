import type { FastifyInstance } from 'fastify';

/** The route label of a request that matched no route (a 404): its path could be anything. */
const UNMATCHED_ROUTE = 'unmatched';

export interface RequestDurationObserver {
  observe(method: string, route: string, statusCode: number, seconds: number): void;
}

/**
 * Times every answer into the request duration histogram, labelled with the route's template
 * (`/v1/records/:record`), never the path as requested: one series per record would grow
 * without bound. Fastify already notes when a request starts and its answer ends
 * (`reply.elapsedTime`), so the hook only reads them.
 */
export function registerRequestMetrics(app: FastifyInstance, durations: RequestDurationObserver): void {
  app.addHook('onResponse', (request, reply, done) => {
    durations.observe(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
