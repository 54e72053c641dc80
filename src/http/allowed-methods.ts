import type { FastifyInstance } from 'fastify';

const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The methods that have a route for this concrete path (none when the path names nothing). */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  return ROUTABLE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
}
