import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { parseRecordListQuery, type RecordListQuery } from '../../../domain/records/list-query.js';
import type { PageLink } from '../../../domain/records/records-service.js';
import { identityOf } from '../../plugins/authenticate.js';
import { publicBaseUrl, resourceUrl } from '../../public-base-url.js';
import { createdWithLocation } from '../../schemas/created.js';
import { errorResponses } from '../../schemas/errors.js';
import { objectBodyValidator } from './object-body.js';
import {
  CreateRecordBody,
  ListRecordsQuery,
  RecordBadRequest,
  RecordParams,
  RecordsListResponse,
  TypeIdParams,
  UpdateRecordBody,
} from './schemas.js';
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
          'Ordered by created_at, then id. next/prev take record IDs; the response links carry the same filters.',
        tags: ['records'],
        querystring: ListRecordsQuery,
        response: {
          200: withExample(RecordsListResponse, exampleRecordsPage, 'a batch of records'),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request) => {
      const query = parseRecordListQuery(request.query);
      const page = await records.list(identityOf(request).companyId, query);
      const base = `${publicBaseUrl(request, ctx.config)}/v1/records`;
      return {
        count: page.results.length,
        next: page.next && pageUrl(base, query, page.next),
        prev: page.prev && pageUrl(base, query, page.prev),
        results: page.results,
      };
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
          'parent_record null, child_records [], linked {} and fields keyed by field name. A 400 carries all three lists ' +
          '(invalid_fields, required_fields, type_errors), every problem at once.',
        tags: ['records'],
        params: TypeIdParams,
        body: CreateRecordBody,
        response: {
          201: createdWithLocation(withExample(RecordSchema, exampleRecord), 'record created'),
          400: RecordBadRequest,
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const record = await records.create(identityOf(request).companyId, request.params.typeId, request.body);
      return reply.code(201).header('location', resourceUrl(request, ctx.config, 'v1', 'records', record.id)).send(record);
    },
  );

  app.get(
    '/records/:record',
    {
      config: { allowRecordToken: true },
      schema: {
        operationId: 'getRecord',
        summary: 'Read a record',
        description: 'Also callable with a record token for this record.',
        tags: ['records'],
        params: RecordParams,
        response: { 200: withExample(RecordSchema, exampleRecord, 'the record'), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => records.get(identityOf(request).companyId, request.params.record),
  );

  app.patch(
    '/records/:record',
    {
      config: { allowRecordToken: true },
      validatorCompiler: objectBodyValidator,
      schema: {
        operationId: 'updateRecord',
        summary: 'Update a record',
        description: 'Merges field values by UID; the reserved key status sets the status. Also callable with a record token for this record.',
        tags: ['records'],
        params: RecordParams,
        body: UpdateRecordBody,
        response: {
          200: withExample(RecordSchema, exampleRecord, 'the record as updated'),
          400: RecordBadRequest,
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => records.update(identityOf(request).companyId, request.params.record, request.body),
  );
};

function pageUrl(base: string, query: RecordListQuery, link: PageLink): string {
  const params = new URLSearchParams(query.linkParams.map(([name, value]): [string, string] => [name, value]));
  if (link.cursor) params.set(link.cursor.kind, link.cursor.id);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}
