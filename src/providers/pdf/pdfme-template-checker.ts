import type { Template } from '@pdfme/common';
import type { TemplateChecker } from '../../domain/templates/template-checker.port.js';
import { invalidBody } from '../../errors/app-error.js';

type PdfmeCommon = typeof import('@pdfme/common');
let pdfmeCommon: Promise<PdfmeCommon> | undefined;

/**
 * pdfme's common module (zod schemas, a bundled font) costs the process memory a service that
 * never uploads a template need not pay; it is loaded on the first template upload rather than at start.
 */
function loadPdfmeCommon(): Promise<PdfmeCommon> {
  pdfmeCommon ??= import('@pdfme/common');
  return pdfmeCommon;
}

/** The template checker of pdfme templates. */
export const pdfmeTemplateChecker: TemplateChecker = {
  check: checkTemplateDocument,
  sampleInputs: (template) => sampleInputs(template as Template),
};

/** PDF's largest page side, 14,400 pt, in millimetres (pdfme measures in mm). */
const MAX_PAGE_SIDE_MM = 5080;
const DATA_URI_PREFIX = /^data:application\/pdf;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Checks an uploaded pdfme template with pdfme's own `checkTemplate` and the service's rules
 * for `basePdf` (a blank page spec, or a PDF inline as base64; never a URL: nothing is fetched).
 * Returns the template in pdfme's current form (legacy keyed schemas are migrated).
 * Throws a 400 naming every problem pdfme found.
 */
async function checkTemplateDocument(body: unknown): Promise<Template> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidBody('the template must be a JSON object {basePdf, schemas}');
  }
  const { checkTemplate, isBlankPdf } = await loadPdfmeCommon();
  const template = structuredClone(body) as Template;
  try {
    checkTemplate(template);
  } catch (error) {
    throw invalidBody(`invalid template: ${describePdfmeCheck(error)}`);
  }
  checkBasePdf(template.basePdf, isBlankPdf);
  if (template.schemas.length === 0) throw invalidBody('invalid template: schemas must list at least one page');
  return template;
}

function checkBasePdf(basePdf: unknown, isBlankPdf: PdfmeCommon['isBlankPdf']): void {
  if (isBlankPdf(basePdf as Template['basePdf'])) {
    const { width, height, padding } = basePdf as { width: number; height: number; padding: number[] };
    for (const [name, side] of [
      ['width', width],
      ['height', height],
    ] as const) {
      if (!(side > 0 && side <= MAX_PAGE_SIDE_MM)) {
        throw invalidBody(`invalid template: basePdf.${name} must be more than 0 and at most ${MAX_PAGE_SIDE_MM} (mm)`);
      }
    }
    if (padding.some((value) => !(value >= 0))) throw invalidBody('invalid template: basePdf.padding values must be >= 0');
    return;
  }
  if (typeof basePdf !== 'string') {
    throw invalidBody('invalid template: basePdf must be a blank page {width, height, padding} or a base64 PDF');
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(basePdf)) {
    throw invalidBody('invalid template: basePdf must be inline (data:application/pdf;base64,...); URLs are not fetched');
  }
  const base64 = basePdf.replace(DATA_URI_PREFIX, '').replace(/\s+/g, '');
  if (!BASE64.test(base64) || !Buffer.from(base64.slice(0, 12), 'base64').toString('latin1').startsWith('%PDF-')) {
    throw invalidBody('invalid template: basePdf is not a base64-encoded PDF (it must start with %PDF-)');
  }
}

/** pdfme reports zod issues as "ERROR POSITION: a.b / ERROR MESSAGE: ..." blocks; make them one line. */
export function describePdfmeCheck(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const issues = [...message.matchAll(/ERROR POSITION: (.*)\nERROR MESSAGE: (.*)/g)].map(([, path, issue]) => `${path || 'template'}: ${issue}`);
  if (issues.length > 0) return issues.join('; ');
  return message
    .replace(/\[@pdfme\/[a-z-]+\]\s*/g, '')
    .replace(/\s*Check this document: \S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Inputs for the trial render at upload: each schema's sample `content`, as pdfme's designer
 * keeps it, and the schema's own name for a required field that has no sample.
 */
async function sampleInputs(template: Template): Promise<Record<string, string>> {
  const { getInputFromTemplate } = await loadPdfmeCommon();
  const inputs = getInputFromTemplate(structuredClone(template))[0] ?? {};
  for (const page of template.schemas) {
    for (const schema of page) {
      if (schema.required && !schema.readOnly && !inputs[schema.name]) inputs[schema.name] = schema.name;
    }
  }
  return inputs;
}
