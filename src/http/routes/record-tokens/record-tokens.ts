import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import { identityOf } from '../../plugins/authenticate.js';
import { resourceUrl } from '../../public-base-url.js';
import { createdWithLocation } from '../../schemas/created.js';
import { errorResponses } from '../../schemas/errors.js';
import { optionalObjectBody } from '../records/object-body.js';
import { RecordParams } from '../records/schemas.js';
import { MintRecordTokenBody, RecordTokenList, RecordTokenResponse, TokenKeyParams } from './schemas.js';
import { exampleRecordToken, exampleRecordTokenSummary, withExample } from '../../schemas/examples.js';

/**
 * Record tokens: minted, listed and revoked by company users only (these routes do not allow
 * record tokens, so the authentication layer answers a record token with 403).
 */
/** /tokens and /actions are one operation: an Idempotency-Key used on one is the same key on the other. */
const MINT_SCOPE = 'record-tokens.mint';

export const recordTokenRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tokens = ctx.recordTokens;
  const tokenUrl = (request: FastifyRequest, minted: { record_id: string; key: string }) =>
    resourceUrl(request, ctx.config, 'v1', 'records', minted.record_id, 'tokens', minted.key);

  const mintSchema = {
    tags: ['record-tokens'],
    params: RecordParams,
    body: MintRecordTokenBody,
    response: {
      201: createdWithLocation(withExample(RecordTokenResponse, exampleRecordToken), 'token minted'),
      ...errorResponses(400, 401, 403, 404),
    },
  };

  app.post(
    '/records/:record/tokens',
    {
      ...optionalObjectBody,
      config: { ...optionalObjectBody.config, idempotency: MINT_SCOPE },
      schema: {
        ...mintSchema,
        operationId: 'createRecordToken',
        summary: 'Mint a token that may read and update this record only',
        description:
          'The token is a JWT signed by the service, valid until expires_at or until revoked. It sees and may change what its ' +
          "record type's form allows (no form: every field and the status), narrowed by this body's fields and status_editable; " +
          "the answer's access says what that is. With the token, GET /records/{record} answers only the visible fields, and a PATCH " +
          'of a hidden or read-only field, or of status when it may not be set, is 403 forbidden naming each, and changes nothing.',
      },
    },
    async (request, reply) => {
      const minted = await tokens.mint(identityOf(request), request.params.record, request.body);
      return reply.code(201).header('location', tokenUrl(request, minted)).send(minted);
    },
  );

  app.post(
    '/records/:record/actions',
    {
      ...optionalObjectBody,
      config: { ...optionalObjectBody.config, idempotency: MINT_SCOPE },
      // Set before the handler, so that a replayed answer (Idempotency-Key) carries them too.
      onRequest: async (request: FastifyRequest<{ Params: { record: string } }>, reply) => {
        reply.header('deprecation', 'true').header('link', `</v1/records/${encodeURIComponent(request.params.record)}/tokens>; rel="successor-version"`);
      },
      schema: {
        ...mintSchema,
        operationId: 'createRecordTokenLegacy',
        summary: 'Mint a record token (deprecated alias of POST /records/{record}/tokens)',
        description: 'Identical to /tokens; answers with the headers Deprecation: true and a Link to the successor.',
        deprecated: true,
      },
    },
    async (request, reply) => {
      const minted = await tokens.mint(identityOf(request), request.params.record, request.body);
      return reply.code(201).header('location', tokenUrl(request, minted)).send(minted);
    },
  );

  app.get(
    '/records/:record/tokens',
    {
      schema: {
        operationId: 'listRecordTokens',
        summary: 'List the live tokens of a record (without their token strings)',
        description:
          'Tokens neither revoked nor expired, oldest first, each with its label and what it may do (access). A record token may not call this (403).',
        tags: ['record-tokens'],
        params: RecordParams,
        response: {
          200: withExample(RecordTokenList, { count: 1, results: [exampleRecordTokenSummary] }, 'the live tokens of the record'),
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (request) => {
      const results = await tokens.listLive(identityOf(request), request.params.record);
      return { count: results.length, results };
    },
  );

  app.delete(
    '/records/:record/tokens/:key',
    {
      schema: {
        operationId: 'revokeRecordToken',
        summary: 'Revoke a record token, at once',
        description: 'The next request with the revoked token answers 401. An unknown key, or one of another record, is 404.',
        tags: ['record-tokens'],
        params: TokenKeyParams,
        response: { 204: Type.Null({ description: 'revoked' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await tokens.revoke(identityOf(request), request.params.record, request.params.key);
      return reply.code(204).send(null);
    },
  );
};
