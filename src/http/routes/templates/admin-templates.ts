import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { AppContext } from '../../../app-context.js';
import { PdfTemplate } from '../../../contracts/pdf-template.js';
import { resourceUrl } from '../../public-base-url.js';
import { createdWithLocation } from '../../schemas/created.js';
import { errorResponses } from '../../schemas/errors.js';
import { CompanyParams } from '../../schemas/company.js';
import { TEMPLATE_SUMMARY_EXAMPLE, TemplateList, TemplateParams, TemplateSummary } from './schemas.js';
import { examplePdfTemplate, exampleTemplate, withExample } from '../../schemas/examples.js';

/** Operator routes: a company's pdfme templates for the pdf_create step. */
export const adminTemplateRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { templates } = ctx;

  app.put(
    '/companies/:company/templates/:templateId',
    {
      bodyLimit: ctx.config.pdf.templateLimitBytes,
      schema: {
        operationId: 'adminPutTemplate',
        summary: 'Store (create or replace) a PDF template',
        description:
          "The body is the pdfme template itself. It is checked with pdfme's checkTemplate and by a trial " +
          "render with the schemas' sample content; a template that cannot render is refused with 400. " +
          `Bodies over WRS_TEMPLATE_LIMIT_BYTES (${ctx.config.pdf.templateLimitBytes} bytes) are refused with 413.`,
        tags: ['operator'],
        params: TemplateParams,
        body: PdfTemplate,
        response: {
          200: withExample(TemplateSummary, exampleTemplate, 'template replaced'),
          201: createdWithLocation(withExample(TemplateSummary, exampleTemplate), 'template created'),
          ...errorResponses(400, 401, 413, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const { company, templateId } = request.params;
      const { created, template } = await templates.put(company, templateId, request.body);
      if (created) reply.code(201).header('location', resourceUrl(request, ctx.config, 'admin', 'v1', 'companies', company, 'templates', templateId));
      return reply.send(template);
    },
  );

  app.get(
    '/companies/:company/templates',
    {
      schema: {
        operationId: 'adminListTemplates',
        summary: "List a company's PDF templates",
        description: 'Every template of the company by ID, without its body: the summary the template PUT answers.',
        tags: ['operator'],
        params: CompanyParams,
        response: {
          200: { ...TemplateList, examples: [{ count: 1, results: [TEMPLATE_SUMMARY_EXAMPLE] }], description: "the company's templates, without bodies" },
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const results = await templates.list(request.params.company);
      return { count: results.length, results };
    },
  );

  app.get(
    '/companies/:company/templates/:templateId',
    {
      schema: {
        operationId: 'adminGetTemplate',
        summary: 'Read a PDF template as stored',
        description: 'The pdfme template ({basePdf, schemas}) exactly as it was stored.',
        tags: ['operator'],
        params: TemplateParams,
        response: {
          200: withExample(PdfTemplate, examplePdfTemplate, 'the template as stored'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => (await templates.get(request.params.company, request.params.templateId)) as Static<typeof PdfTemplate>,
  );

  app.delete(
    '/companies/:company/templates/:templateId',
    {
      schema: {
        operationId: 'adminDeleteTemplate',
        summary: 'Delete a PDF template',
        description: 'PDFs already rendered with it stay downloadable.',
        tags: ['operator'],
        params: TemplateParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await templates.delete(request.params.company, request.params.templateId);
      return reply.code(204).send(null);
    },
  );
};
