import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { unstorableTextError } from '../../contracts/storable-text.js';
import { notFound } from '../../errors/app-error.js';
import { isStorableText } from '../../lib/text.js';
import { prependRouteHook, takesBody } from '../route-hooks.js';

/**
 * PostgreSQL text cannot hold NUL (the statement fails), and a lone surrogate is not Unicode
 * text (a driver silently stores U+FFFD instead). Both are refused before any handler, so both
 * databases answer alike: a path segment holding one names nothing (404); a JSON body holding
 * one is a 400 naming where. Query parameters are checked as they are parsed (query-string.ts);
 * streamed bodies (the event ingest, the records import) by their readers, item by item.
 *
 * Only routes with path parameters or a body run the check. Register after every plugin that
 * puts hooks of its own on routes (idempotency): the check comes first of a route's hooks.
 */
export function registerTextInputRules(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (hasPathParameters(route) || takesBody(route)) prependRouteHook(route, 'preValidation', refuseUnstorableText);
  });
}

function refuseUnstorableText(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (Object.values(params).some((value) => typeof value === 'string' && !isStorableText(value))) {
    throw notFound(`no route ${request.method} ${request.url.split('?')[0]}: a path segment holds a NUL character or an unpaired surrogate`);
  }
  const bodyError = unstorableTextError(request.body);
  if (bodyError) throw bodyError;
  done();
}

function hasPathParameters(route: RouteOptions): boolean {
  return route.url.includes(':') || route.url.includes('*');
}
