import { Type } from '@sinclair/typebox';

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
    basePdf: Type.Union([BlankPage, Type.String({ description: 'a PDF as base64, optionally as data:application/pdf;base64,...' })]),
    schemas: Type.Array(Type.Array(Type.Object({}, { additionalProperties: true })), {
      description: 'one array of pdfme schemas (name, type, position, width, height, ...) per page',
    }),
  },
  { additionalProperties: true, title: 'PdfTemplate', description: 'a pdfme template' },
);
