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
import { exampleRecord, exampleRecordType, exampleRecordTypeList, withExample } from '../../schemas/examples.js';
import { RecordSchema } from '../../../domain/records/record.js';

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

/** How many of a type's records its records read shows at most. */
const MAX_RECORDS_OF_TYPE = 100;
const DEFAULT_RECORDS_OF_TYPE = 10;

const RecordsOfTypeQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_RECORDS_OF_TYPE,
        description: `how many records to list, most recently created first; default ${DEFAULT_RECORDS_OF_TYPE}, at most ${MAX_RECORDS_OF_TYPE}`,
      }),
    ),
  },
  { additionalProperties: false },
);

const RecordsOfType = Type.Object({
  count: Type.Integer({ description: 'how many records of the company follow the type (all of them, not only those listed)' }),
  results: Type.Array(RecordSchema, { description: 'the most recently created of them, at most limit' }),
});

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

  app.get(
    '/companies/:company/record-types/:typeId/records',
    {
      schema: {
        operationId: 'adminListRecordsOfType',
        summary: 'The records a record type applies to',
        description:
          "How many of the company's records follow the custom record type, and the most recently created of them " +
          '(as company users read them): the records a new definition of the type (PUT) would apply to. ' +
          'A type that is not defined now answers its records all the same (a deleted type keeps them; defining it again applies to them).',
        tags: ['operator'],
        params: Params,
        querystring: RecordsOfTypeQuery,
        response: {
          200: withExample(RecordsOfType, { count: 1, results: [exampleRecord] }, 'the records of the type'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const { company, typeId } = request.params;
      return ctx.records.ofType(company, typeId, request.query.limit ?? DEFAULT_RECORDS_OF_TYPE);
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
