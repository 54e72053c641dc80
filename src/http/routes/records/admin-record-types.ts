import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { FIELD_TYPES } from '../../../domain/record-types/definition.js';
import { CompanyId, CompanyParams } from '../../schemas/company.js';
import { resourceUrl } from '../../public-base-url.js';
import { createdWithLocation } from '../../schemas/created.js';
import { errorResponses } from '../../schemas/errors.js';
import { objectBodyValidator } from './object-body.js';
import { FormSchema, RecordType, RecordTypeList } from '../record-types/schemas.js';
import { exampleRecordType, exampleRecordTypeList, withExample } from '../../schemas/examples.js';

const Text = Type.String({ minLength: 1, maxLength: 200 });

const FieldDefinition = Type.Object(
  {
    uid: Type.String({ minLength: 1, maxLength: 200, description: 'field UID: the key of create and update bodies; not "status"' }),
    field_name: Type.String({ minLength: 1, maxLength: 200, description: "the key of the field in a record's fields" }),
    type: Type.Union(FIELD_TYPES.map((type) => Type.Literal(type))),
    required: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

const ViewDefinition = Type.Object(
  {
    id: Text,
    name: Text,
    statuses: Type.Optional(Type.Array(Text, { description: 'statuses of the records in the view; empty or absent: every record of the type' })),
  },
  { additionalProperties: false },
);

const RecordTypeBody = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'must equal the typeId of the path when sent' })),
    name: Text,
    fields: Type.Optional(Type.Array(FieldDefinition, { maxItems: 500 })),
    statuses: Type.Optional(Type.Array(Text, { maxItems: 200, description: 'the first is the initial status ("new" when none)' })),
    views: Type.Optional(Type.Array(ViewDefinition, { maxItems: 200 })),
    form: Type.Optional(FormSchema),
  },
  { additionalProperties: false },
);

const Params = Type.Object({ company: CompanyId(), typeId: Type.String({ maxLength: 200 }) });

/** Operator API: a company's custom record types. */
export const adminRecordTypeRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const types = ctx.recordTypes;

  app.put(
    '/companies/:company/record-types/:typeId',
    {
      validatorCompiler: objectBodyValidator,
      schema: {
        operationId: 'adminPutRecordType',
        summary: 'Define or replace a custom record type',
        description:
          'Answers 201 when the type is new, 200 when it replaced one; the new definition applies to the next request. ' +
          'A 400 lists every problem of the definition in `problems`.',
        tags: ['operator'],
        params: Params,
        body: RecordTypeBody,
        response: {
          200: withExample(RecordType, exampleRecordType, 'record type replaced'),
          201: createdWithLocation(withExample(RecordType, exampleRecordType), 'record type created'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const { company, typeId } = request.params;
      const { type, created } = await types.put(company, typeId, request.body);
      if (created) reply.code(201).header('location', resourceUrl(request, ctx.config, 'admin', 'v1', 'companies', company, 'record-types', typeId));
      return reply.send(type);
    },
  );

  app.get(
    '/companies/:company/record-types/:typeId',
    {
      schema: {
        operationId: 'adminGetRecordType',
        summary: 'Read a custom record type',
        description: 'Its fields (uid, field_name, type, required), statuses (the first is the initial one) and views.',
        tags: ['operator'],
        params: Params,
        response: { 200: withExample(RecordType, exampleRecordType, 'the record type'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => types.get(request.params.company, request.params.typeId),
  );

  app.get(
    '/companies/:company/record-types',
    {
      schema: {
        operationId: 'adminListRecordTypes',
        summary: "List a company's custom record types",
        description: 'Every custom record type of the company, ordered by ID.',
        tags: ['operator'],
        params: CompanyParams,
        response: {
          200: withExample(RecordTypeList, exampleRecordTypeList, 'the record types'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const results = await types.list(request.params.company);
      return { count: results.length, results };
    },
  );

  app.delete(
    '/companies/:company/record-types/:typeId',
    {
      schema: {
        operationId: 'adminDeleteRecordType',
        summary: 'Delete a custom record type',
        description: 'Its records stay: readable and listed, in no view, taking only status in PATCH, until the type is defined again.',
        tags: ['operator'],
        params: Params,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await types.remove(request.params.company, request.params.typeId);
      return reply.code(204).send(null);
    },
  );
};
