import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { parseRecordListQuery, type RecordListQuery } from '../../../domain/records/list-query.js';
import type { PageLink } from '../../../domain/records/records-service.js';
import { JSON_CONTENT_TYPE } from '../../json-content-type.js';
import { tagOfRecordJson } from '../../../domain/records/record-tag.js';
import { answeredNotModified, ifMatchOf, strongEtag, weakEtagOf } from '../../conditional-requests.js';
import type { Identity } from '../../../domain/auth/identity.js';
import { identityOf } from '../../plugins/authenticate.js';
import { publicBaseUrl, resourceUrl } from '../../public-base-url.js';
import { createdWithLocation } from '../../schemas/created.js';
import { IfMatchHeaders, IfNoneMatchHeaders, notModifiedResponse, withEtag } from '../../schemas/conditional.js';
import { ErrorResponse, errorResponses } from '../../schemas/errors.js';
import { objectBodyValidator } from './object-body.js';
import { CreateRecordBody, ListRecordsQuery, RecordBadRequest, RecordParams, RecordsListResponse, TypeIdParams, UpdateRecordBody } from './schemas.js';
import { RecordSchema } from '../../../domain/records/record.js';
import { exampleRecord, exampleRecordsPage, withExample } from '../../schemas/examples.js';

/** Workboard records: create, read, update and list, scoped to the caller's company. */
export const recordRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const records = ctx.records;

  app.get(
    '/records',
    {
      schema: {
        operationId: 'listRecords',
        summary: 'List records',
        description:
          'Ordered by created_at, then id. next/prev take record IDs; the response links carry the same filters. ' +
          'The ETag changes whenever a write of the company could change the answer; If-None-Match with it answers 304.',
        tags: ['records'],
        querystring: ListRecordsQuery,
        headers: IfNoneMatchHeaders,
        response: {
          200: withEtag(withExample(RecordsListResponse, exampleRecordsPage, 'a batch of records')),
          ...notModifiedResponse,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const query = parseRecordListQuery(request.query);
      const identity = identityOf(request);
      const base = `${publicBaseUrl(request, ctx.config)}/v1/records`;
      // Read before the list: a write committed meanwhile can only make the tag older than the answer.
      const version = await ctx.dataVersions.current(identity.companyId);
      const etagAt = (at: number) => weakEtagOf(['records', identity.companyId, identity.kind, at, base, query]);
      const etag = etagAt(version);
      if (answeredNotModified(request, reply, etag)) return reply;
      const listRequest = { companyId: identity.companyId, headers: request.headers, etagAt, notModified: () => false };
      const body = await ctx.fastPath.keptPage(listRequest, version, async () => {
        const page = await records.list(identity.companyId, query);
        // Serialised here, by the route's response schema, so the cache keeps the bytes.
        return reply.serialize({
          count: page.results.length,
          next: page.next && pageUrl(base, query, page.next),
          prev: page.prev && pageUrl(base, query, page.prev),
          results: page.results,
        });
      });
      return reply.type(JSON_CONTENT_TYPE).send(body as never);
    },
  );

  app.post(
    '/records/:typeId',
    {
      config: { idempotency: 'records.create' },
      validatorCompiler: objectBodyValidator,
      schema: {
        operationId: 'createRecord',
        summary: 'Create a record of a custom record type',
        description:
          'The body maps field UIDs to values. The record gets record_type "custom", uid = typeId, the type\'s initial status, ' +
          'parent_record null, child_records [], linked {} and fields keyed by field name. The ETag is the one a GET of the ' +
          'new record answers (If-Match with it makes a first PATCH safe). A 400 carries all three lists ' +
          '(invalid_fields, required_fields, type_errors), every problem at once.',
        tags: ['records'],
        params: TypeIdParams,
        body: CreateRecordBody,
        response: {
          201: withEtag(createdWithLocation(withExample(RecordSchema, exampleRecord), 'record created')),
          400: RecordBadRequest,
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const record = await records.create(identityOf(request).companyId, request.params.typeId, request.body);
      // Serialised as GET serialises it, so the tag is the one a GET of the record answers.
      const json = JSON.stringify(record);
      return reply
        .code(201)
        .header('location', resourceUrl(request, ctx.config, 'v1', 'records', record.id))
        .header('etag', strongEtag(tagOfRecordJson(json)))
        .type(JSON_CONTENT_TYPE)
        .send(json as never);
    },
  );

  app.get(
    '/records/:record',
    {
      config: { allowRecordToken: true },
      schema: {
        operationId: 'getRecord',
        summary: 'Read a record',
        description:
          'Also callable with a record token for this record. The strong ETag changes whenever the record does (a gzip or br ' +
          'body\'s tag carries its coding, "<tag>.gzip" or "<tag>.br"; each is current for If-Match and If-None-Match); ' +
          'the answer is Cache-Control: private, no-cache. ' +
          'If-None-Match with it answers 304, If-Match with it makes a PATCH safe from lost updates.',
        tags: ['records'],
        params: RecordParams,
        headers: IfNoneMatchHeaders,
        response: {
          200: withEtag(withExample(RecordSchema, exampleRecord, 'the record')),
          ...notModifiedResponse,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const identity = identityOf(request);
      const record = await records.get(identity.companyId, request.params.record, narrowingOf(identity));
      // Serialised once, for both the body and its tag (the resource's keys are in the schema's order).
      const json = JSON.stringify(record);
      // Kept by the caller's own cache only, and checked with the service (If-None-Match) before each use.
      reply.header('cache-control', 'private, no-cache');
      if (answeredNotModified(request, reply, strongEtag(tagOfRecordJson(json)))) return reply;
      return reply.type(JSON_CONTENT_TYPE).send(json as never);
    },
  );

  app.patch(
    '/records/:record',
    {
      config: { allowRecordToken: true },
      validatorCompiler: objectBodyValidator,
      schema: {
        operationId: 'updateRecord',
        summary: 'Update a record',
        description:
          'Merges field values by UID; the reserved key status sets the status. Also callable with a record token for this record. ' +
          'With If-Match, the update happens only if the record still has that ETag (or exists, for *): else 412 and nothing changes.',
        tags: ['records'],
        params: RecordParams,
        headers: IfMatchHeaders,
        body: UpdateRecordBody,
        response: {
          200: withEtag(withExample(RecordSchema, exampleRecord, 'the record as updated')),
          400: RecordBadRequest,
          ...errorResponses(401, 403, 404, 412),
          403: {
            ...ErrorResponse,
            description:
              'forbidden: a record token for another record, or one whose form does not let it see or change a field, ' +
              'or the status, that the body sets (the message names each); nothing is changed',
          },
        },
      },
    },
    async (request, reply) => {
      const ifMatch = ifMatchOf(request);
      const identity = identityOf(request);
      const record = await records.update(identity.companyId, request.params.record, request.body, ifMatch, narrowingOf(identity));
      const json = JSON.stringify(record);
      return reply
        .header('etag', strongEtag(tagOfRecordJson(json)))
        .type(JSON_CONTENT_TYPE)
        .send(json as never);
    },
  );
};

const narrowingOf = (identity: Identity) => (identity.kind === 'record' ? identity.narrowing : undefined);

function pageUrl(base: string, query: RecordListQuery, link: PageLink): string {
  const params = new URLSearchParams(query.linkParams.map(([name, value]): [string, string] => [name, value]));
  if (link.cursor) params.set(link.cursor.kind, link.cursor.id);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}
