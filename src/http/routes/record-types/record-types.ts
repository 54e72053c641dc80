import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { errorResponses } from '../../schemas/errors.js';
import { recordAccessOf, typeAsSeen } from '../../../domain/records/record-access.js';
import { RECORD_TYPE_EXAMPLE, RecordType, RecordTypeList, TypeIdParams } from './schemas.js';

/** Discovery: the company's custom record types, so a client learns the field UIDs of create and update bodies. */
export const recordTypeRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/record-types',
    {
      schema: {
        operationId: 'listRecordTypes',
        summary: "List the company's record types",
        description:
          "Every custom record type of the caller's company with its fields (the UIDs that create and update " +
          'bodies use), statuses and views, by ID. Record tokens are refused with 403.',
        tags: ['record-types'],
        response: {
          200: { ...RecordTypeList, examples: [{ count: 1, results: [RECORD_TYPE_EXAMPLE] }], description: "the company's record types" },
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const results = await ctx.recordTypes.list(identityOf(request).companyId);
      return { count: results.length, results };
    },
  );

  app.get(
    '/record-types/:typeId',
    {
      config: { allowRecordToken: 'own-record-type' },
      schema: {
        operationId: 'getRecordType',
        summary: 'Read a record type',
        description:
          "One custom record type of the caller's company; 404 when the company has none by that ID. `version` " +
          'grows with each replacement. A record token may read the type its own record follows, and no other (403); ' +
          'when its type has a form or its mint narrowed it, it gets the type as it sees it: only its visible fields, and a form ' +
          'listing them with editable and saying whether it may set the status. A record token also gets `company`: the ' +
          "company's display name and support email, which the hosted form shows; company users do not.",
        tags: ['record-types'],
        params: TypeIdParams,
        response: {
          200: { ...RecordType, examples: [RECORD_TYPE_EXAMPLE], description: 'the record type' },
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const identity = identityOf(request);
      const type = await ctx.recordTypes.get(identity.companyId, request.params.typeId);
      if (identity.kind !== 'record') return type;
      const access = recordAccessOf(type, identity.narrowing);
      const company = await ctx.companyProfiles.forForm(identity.companyId);
      return { ...(access ? typeAsSeen(type, access) : type), company };
    },
  );
};
