import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { ifMatchOf } from '../../conditional-requests.js';
import { identityOf } from '../../plugins/authenticate.js';
import { CompanyId } from '../../schemas/company.js';
import { IfMatchHeaders } from '../../schemas/conditional.js';
import { errorResponses } from '../../schemas/errors.js';
import { RecordParams } from './schemas.js';

const WHAT_GOES =
  'Deletes the record in one transaction: its record tokens are revoked (they answer 401 from then on), its files and their ' +
  "bytes are deleted, and its ID is removed from other records' parent_record, child_records and linked (each such record " +
  'is announced as record.updated). Sends the webhook record.deleted with data {id, record_type, uid, deleted_at}. ' +
  'With If-Match, the record is deleted only if it still has that ETag (or exists, for *): else 412 and nothing changes.';

const AdminRecordParams = Type.Object({ company: CompanyId(), record: RecordParams.properties.record });

const deleted = { 204: Type.Null({ description: 'deleted; no body' }) };

/** A company user deletes one of the company's records. */
export const deleteRecordRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.delete(
    '/records/:record',
    {
      schema: {
        operationId: 'deleteRecord',
        summary: 'Delete a record',
        description: `${WHAT_GOES} A record token may not delete (403); another company's record is 404, as any unknown record.`,
        tags: ['records'],
        params: RecordParams,
        headers: IfMatchHeaders,
        response: { ...deleted, ...errorResponses(400, 401, 403, 404, 412) },
      },
    },
    async (request, reply) => {
      await ctx.recordDeletion.delete(identityOf(request).companyId, request.params.record, ifMatchOf(request));
      return reply.code(204).send(null);
    },
  );
};

/** Operator API: delete a record of any company, as its users can. */
export const adminDeleteRecordRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.delete(
    '/companies/:company/records/:record',
    {
      schema: {
        operationId: 'adminDeleteRecord',
        summary: 'Delete a record of a company',
        description: `${WHAT_GOES} Only the operator token reaches this route.`,
        tags: ['operator'],
        params: AdminRecordParams,
        headers: IfMatchHeaders,
        response: { ...deleted, ...errorResponses(400, 401, 404, 412) },
      },
    },
    async (request, reply) => {
      await ctx.recordDeletion.delete(request.params.company, request.params.record, ifMatchOf(request));
      return reply.code(204).send(null);
    },
  );
};
