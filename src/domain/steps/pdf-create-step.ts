import { cannotRender, invalidBody, notFound, templateNotFound } from '../../errors/app-error.js';
import { namesWithMore } from '../../errors/item-problems.js';
import type { Clock } from '../../lib/clock.js';
import { clipped } from '../../lib/text.js';
import { RenderRejectedError, RendererUnavailableError, TOO_MANY_WAITING, type PdfRenderer } from '../templates/pdf-renderer.port.js';
import { fileDetails } from '../files/file-details.js';
import type { FileService } from '../files/file-service.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import type { StoredFile } from '../files/stored-file.js';
import type { TemplateService } from '../templates/template-service.js';
import { checkPdfFilename } from './pdf-filename.js';
import { inputBytes, recordInputs, type StepRecordFinder } from './record-inputs.js';
import { renderFailure } from '../templates/render-failure.js';

export const PDF_CONTENT_TYPE = 'application/pdf';
const INPUT_NAMES = ['pdf_filename', 'template_id'] as const;

export interface PdfCreateInputs {
  pdfFilename: string;
  templateId: string;
}

/** Checks the inputs of a pdf_create step; one 400 lists every problem. */
export function checkPdfCreateInputs(inputs: Record<string, unknown>): PdfCreateInputs {
  const problems: string[] = [];
  for (const name of INPUT_NAMES) {
    if (inputs[name] === undefined) problems.push(`inputs.${name} is required`);
    else if (typeof inputs[name] !== 'string') problems.push(`inputs.${name} must be a string`);
  }
  for (const name of Object.keys(inputs)) {
    if (!(INPUT_NAMES as readonly string[]).includes(name)) problems.push(`unknown input 'inputs.${clipped(name)}'`);
  }
  let pdfFilename = '';
  if (typeof inputs.pdf_filename === 'string') {
    const checked = checkPdfFilename(inputs.pdf_filename);
    if (checked.ok) pdfFilename = checked.filename;
    else problems.push(`inputs.pdf_filename ${checked.reason}`);
  }
  if (problems.length > 0) throw invalidBody(`invalid pdf_create inputs: ${namesWithMore(problems, '; ')}`);
  return { pdfFilename, templateId: inputs.template_id as string };
}

/** What the pdf_create step is built from. */
export interface PdfCreateStepDeps {
  findRecord: StepRecordFinder;
  templates: TemplateService;
  renderer: PdfRenderer;
  /** Largest record data a render takes in (WRS_PDF_INPUT_LIMIT_BYTES): render time grows faster than it. */
  inputLimitBytes: number;
  files: FileService;
  clock: Clock;
  /** Announces step.completed in the transaction that stores the PDF. */
  outbox: WebhookOutbox;
}

/** Renders a company's template with one of its records and stores the PDF. */
export function createPdfCreateStep(deps: PdfCreateStepDeps) {
  const { findRecord, templates, renderer, inputLimitBytes, files, clock, outbox } = deps;
  /** `baseUrl`: the base of the download link the step's details (and its webhook) carry. */
  return async function runPdfCreate(companyId: string, recordId: string, inputs: PdfCreateInputs, baseUrl: string): Promise<StoredFile> {
    // Refused before the record and template are read: a company that keeps asking while its
    // renders wait costs the other companies as little as it can.
    if (!renderer.admits(companyId)) throw renderFailure(new RendererUnavailableError(TOO_MANY_WAITING));
    const record = await findRecord(companyId, recordId);
    if (!record) throw notFound(`no record '${recordId}'`);
    const template = await templates.find(companyId, inputs.templateId);
    if (!template) throw templateNotFound(`no template '${inputs.templateId}'`);

    const values = recordInputs(record);
    const sizeBytes = inputBytes(values);
    if (sizeBytes > inputLimitBytes) {
      throw cannotRender(
        `record '${recordId}' has ${sizeBytes} bytes of data (field names and values, UTF-8); ` +
          `a PDF render takes at most ${inputLimitBytes} bytes (WRS_PDF_INPUT_LIMIT_BYTES)`,
        { size_bytes: sizeBytes, limit_bytes: inputLimitBytes },
      );
    }

    let rendered;
    try {
      rendered = await renderer.render({
        companyId,
        template,
        inputs: values,
        title: inputs.pdfFilename.replace(/\.pdf$/i, ''),
        createdAt: clock.now().toISOString(),
      });
    } catch (error) {
      if (error instanceof RenderRejectedError) {
        throw cannotRender(`template '${inputs.templateId}' cannot render record '${recordId}': ${error.reason}`);
      }
      throw renderFailure(error);
    }
    return files.store(
      companyId,
      {
        recordId,
        filename: inputs.pdfFilename,
        contentType: PDF_CONTENT_TYPE,
        templateId: inputs.templateId,
        bytes: rendered.bytes,
        pages: rendered.pages,
        sha256: rendered.sha256,
      },
      (scope, stored) => outbox.enqueue(scope, companyId, 'step.completed', { record_id: recordId, type: 'pdf_create', details: fileDetails(stored, baseUrl) }),
    );
  };
}
