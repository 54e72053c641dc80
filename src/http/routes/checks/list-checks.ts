import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { parseCheckListQuery } from '../../../domain/checks/list-query.js';
import { identityOf } from '../../plugins/authenticate.js';
import { publicBaseUrl, type PublicLinkSettings } from '../../public-base-url.js';
import { errorResponses } from '../../schemas/errors.js';
import { CheckList, ListChecksQuery } from './schemas.js';
import { exampleChecksPage, withExample } from '../../schemas/examples.js';

const CURSOR_PARAMS = new Set(['after', 'before']);

export const listChecksRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/checks',
    {
      schema: {
        operationId: 'listChecks',
        summary: 'List mailed checks',
        description:
          "Lists the company's mailed checks from its provider (the embedded one, or Lob), newest first by default. " +
          'next_url and previous_url point at this service with opaque after/before cursors.',
        tags: ['checks'],
        querystring: ListChecksQuery,
        response: {
          200: withExample(CheckList, exampleChecksPage, 'a page of checks'),
          ...errorResponses(400, 401, 403, 502, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const { companyId } = identityOf(request);
      const query = parseCheckListQuery(request.query as Record<string, unknown>);
      const listing = await ctx.checks.list(companyId, query);
      const link = (param: 'after' | 'before', cursor: string | null) => (cursor === null ? null : pageUrl(request, ctx.config, param, cursor));
      // Provider data passes through as JSON as it came: the schema documents Lob's fields
      // but must not coerce or drop what a provider returns.
      return reply.serializer(JSON.stringify).send({
        count: listing.results.length,
        results: listing.results,
        next_url: link('after', listing.after),
        previous_url: link('before', listing.before),
      });
    },
  );
};

/** This service's URL for another page: the request's own parameters, with a new cursor. */
function pageUrl(request: FastifyRequest, links: PublicLinkSettings, param: 'after' | 'before', cursor: string): string {
  const base = publicBaseUrl(request, links);
  const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const params = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (!CURSOR_PARAMS.has(name)) params.append(name, value);
  }
  params.set(param, cursor);
  return `${base}/v1/checks?${params.toString()}`;
}
