import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../app-context.js';
import { LobKeyBody } from '../../../contracts/lob-key.js';
import { errorResponses } from '../../schemas/errors.js';
import { CompanyParams, ProviderStatusResponse } from './schemas.js';
import { exampleProviderStatus, withExample } from '../../schemas/examples.js';

/**
 * A company's check provider. The Lob key goes in and never comes out: answers carry only
 * which provider is used, where its key comes from, and the key's last four characters.
 */
export const adminCheckProviderRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const settings = ctx.checkProviders;

  app.get(
    '/companies/:company/providers',
    {
      schema: {
        operationId: 'adminGetProviders',
        summary: 'Show which check provider a company uses (never the key)',
        description:
          'local (the embedded provider) unless the company has a Lob key of its own or LOB_API_KEY is set; ' +
          'only the last 4 characters of a key are shown.',
        tags: ['operator'],
        params: CompanyParams,
        response: {
          200: withExample(ProviderStatusResponse, exampleProviderStatus, 'the provider the company uses'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => settings.status(request.params.company),
  );

  app.put(
    '/companies/:company/providers/lob',
    {
      schema: {
        operationId: 'adminPutLobKey',
        summary: "Set a company's Lob API key",
        description: 'Stored encrypted (AES-256-GCM with WRS_ENCRYPTION_KEY); the answer never contains it.',
        tags: ['operator'],
        params: CompanyParams,
        body: LobKeyBody,
        response: {
          200: withExample(ProviderStatusResponse, exampleProviderStatus, 'the provider the company uses'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => settings.setLobKey(request.params.company, request.body.api_key),
  );

  app.delete(
    '/companies/:company/providers/lob',
    {
      schema: {
        operationId: 'adminDeleteLobKey',
        summary: "Remove a company's Lob API key",
        description: 'The company falls back to LOB_API_KEY when set, else to the embedded provider. Idempotent.',
        tags: ['operator'],
        params: CompanyParams,
        response: {
          200: withExample(ProviderStatusResponse, exampleProviderStatus, 'the provider the company uses'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      await settings.removeLobKey(request.params.company);
      return settings.status(request.params.company);
    },
  );
};
