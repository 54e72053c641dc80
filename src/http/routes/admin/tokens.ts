import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { COMPANY_ID_RULE, companyIdProblem } from '../../../domain/auth/company-id.js';
import { DEFAULT_USER_TOKEN_LIFETIME_S, mintedUserTokenLifetime, userTokenLifetimeProblem } from '../../../domain/auth/user-token-lifetime.js';
import { invalidBody } from '../../../errors/app-error.js';
import { CompanyId } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { exampleMintedToken, withExample } from '../../schemas/examples.js';

const MintTokenBody = Type.Object(
  {
    company_id: CompanyId('the company of the token'),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    expires_in: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 31_536_000,
        description: `seconds; default ${DEFAULT_USER_TOKEN_LIFETIME_S}, or WRS_JWT_MAX_LIFETIME_S when that is lower; at most WRS_JWT_MAX_LIFETIME_S when set`,
      }),
    ),
  },
  { additionalProperties: false },
);

const MintedToken = Type.Object({
  token: Type.String(),
  token_type: Type.Literal('Bearer'),
  company_id: Type.String(),
  user_id: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.String({ format: 'date-time' }),
});

export const adminTokenRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/tokens',
    {
      schema: {
        operationId: 'adminMintToken',
        summary: 'Mint a bearer JWT for a company user',
        description:
          'A JWT with company_id and sub (user_id), signed by the service and valid for expires_in seconds. ' +
          'Refused (400) when user tokens come from an identity provider (WRS_JWT_PUBLIC_KEY or WRS_JWT_JWKS_URL), ' +
          'and when expires_in is longer than WRS_JWT_MAX_LIFETIME_S (the service would refuse the token).',
        tags: ['operator'],
        body: MintTokenBody,
        response: {
          201: withExample(MintedToken, exampleMintedToken, 'the signed user token'),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      if (ctx.jwtVerifier.usesExternalKeys) {
        throw invalidBody('user tokens come from your identity provider when WRS_JWT_PUBLIC_KEY or WRS_JWT_JWKS_URL is set');
      }
      const { company_id, user_id } = request.body;
      const problem = companyIdProblem(company_id);
      if (problem) throw invalidBody(`invalid body: field 'company_id' ${problem} (${COMPANY_ID_RULE})`);
      const maxLifetime = ctx.config.jwt.maxLifetimeSeconds;
      const expiresIn = mintedUserTokenLifetime(request.body.expires_in, maxLifetime);
      const tooLong = userTokenLifetimeProblem(expiresIn, maxLifetime);
      if (tooLong) throw invalidBody(`invalid body: field 'expires_in' ${tooLong}`);
      const claims = { company_id, ...(user_id ? { sub: user_id } : {}) };
      const signed = await ctx.tokenSigner.sign(claims, expiresIn);
      return reply.code(201).send({
        token: signed.token,
        token_type: 'Bearer' as const,
        company_id,
        user_id: user_id ?? null,
        expires_at: signed.expiresAt.toISOString(),
      });
    },
  );
};
