import { Type } from '@sinclair/typebox';
import { CompanyId } from '../../schemas/company.js';

export const TemplateParams = Type.Object({
  company: CompanyId(),
  templateId: Type.String({ minLength: 1, maxLength: 128, description: 'letters, digits and . _ ~ -' }),
});

const BlankPage = Type.Object(
  {
    width: Type.Number({ description: 'mm' }),
    height: Type.Number({ description: 'mm' }),
    padding: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'mm: top, right, bottom, left' }),
  },
  { additionalProperties: true, title: 'BlankPage' },
);

/**
 * A pdfme template. Only its outline is checked here; pdfme's own `checkTemplate` and a trial
 * render check the rest, with messages naming the schema at fault.
 */
export const PdfTemplate = Type.Object(
  {
    basePdf: Type.Union([
      BlankPage,
      Type.String({ description: 'a PDF as base64, optionally as data:application/pdf;base64,...' }),
    ]),
    schemas: Type.Array(Type.Array(Type.Object({}, { additionalProperties: true })), {
      description: 'one array of pdfme schemas (name, type, position, width, height, ...) per page',
    }),
  },
  { additionalProperties: true, title: 'PdfTemplate', description: 'a pdfme template' },
);

export const TemplateSummary = Type.Object({
  id: Type.String(),
  company_id: Type.String(),
  size_bytes: Type.Integer({ description: 'stored size of the template JSON' }),
  pages: Type.Integer({ description: 'pages of the trial render at upload' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
