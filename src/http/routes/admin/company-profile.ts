import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import {
  CompanyProfileSchema,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_SUPPORT_EMAIL_LENGTH,
  type CompanyProfile,
} from '../../../domain/company-profile/company-profile.js';
import { CompanyParams } from '../../schemas/company.js';
import { errorResponses } from '../../schemas/errors.js';
import { withExample } from '../../schemas/examples.js';

// Lengths are checked after trimming (company-profile.ts), so the schema bounds only what it reads.
// One schema with two types rather than a union: Ajv's coercion would read null as the string "".
const nullableText = (maxLength: number, description: string) =>
  Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, description }));

const ProfileBody = Type.Object(
  {
    display_name: nullableText(
      4 * MAX_DISPLAY_NAME_LENGTH,
      `the name the hosted form shows, 1 to ${MAX_DISPLAY_NAME_LENGTH} characters; null clears it; absent leaves it`,
    ),
    support_email: nullableText(
      2 * MAX_SUPPORT_EMAIL_LENGTH,
      `an email address (at most ${MAX_SUPPORT_EMAIL_LENGTH} characters) the form offers for questions; null clears it; absent leaves it`,
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

const example: CompanyProfile = { company_id: 'acme', display_name: 'Acme Equipment Finance', support_email: 'loans@acme.example' };
const answer = (description: string) => withExample(CompanyProfileSchema, example, description);

/** A company's profile: what the hosted form shows of the company (docs/operator.md, "Company profile"). */
export const adminCompanyProfileRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/companies/:company/profile',
    {
      schema: {
        operationId: 'adminGetCompanyProfile',
        summary: "Show a company's profile",
        description: 'The display name and support email the hosted form shows to the people a record token is sent to; null where not set.',
        tags: ['operator'],
        params: CompanyParams,
        response: { 200: answer("the company's profile"), ...errorResponses(400, 401) },
      },
    },
    async (request) => ctx.companyProfiles.get(request.params.company),
  );

  app.patch(
    '/companies/:company/profile',
    {
      schema: {
        operationId: 'adminPatchCompanyProfile',
        summary: "Set a company's display name and support email",
        description:
          'Sets the values sent (surrounding blanks removed), clears those sent as null and leaves the others. ' +
          `display_name: 1 to ${MAX_DISPLAY_NAME_LENGTH} visible characters; support_email: an address such as help@example.com. ` +
          'A bad value is a 400 naming it, and nothing changes. Idempotent.',
        tags: ['operator'],
        params: CompanyParams,
        body: ProfileBody,
        response: { 200: answer("the company's profile as it now is"), ...errorResponses(400, 401) },
      },
    },
    async (request) => ctx.companyProfiles.update(request.params.company, request.body),
  );
};
