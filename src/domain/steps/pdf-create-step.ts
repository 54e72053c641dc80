import { Type } from '@sinclair/typebox';
import { cannotRender, invalidBody, notFound, templateNotFound } from '../../errors/app-error.js';
import { RenderRejectedError, RendererUnavailableError, TOO_MANY_WAITING } from '../templates/pdf-renderer.port.js';
import { fileDetails, StoredFileDetails } from '../files/file-details.js';
import { checkPdfFilename } from './pdf-filename.js';
import { inputBytes, recordInputs } from './record-inputs.js';
import { renderFailure } from '../templates/render-failure.js';
import { defineStepType } from './step-type.js';

export const PDF_CONTENT_TYPE = 'application/pdf';

export const PdfCreateInputs = Type.Object(
  {
    pdf_filename: Type.String({
      description: 'file name of the PDF; a plain name (no path separators or control characters, at most 255 bytes); .pdf is appended when absent',
    }),
    template_id: Type.String({ description: 'ID of the template to render' }),
  },
  { additionalProperties: false, title: 'PdfCreateInputs', description: 'the inputs of pdf_create' },
);

/** Renders a company's template with one of its records and stores the PDF. */
export const pdfCreateStep = defineStepType({
  type: 'pdf_create',
  summary:
    "renders the company's template with the record (its fields by field name, and id, status, created_at) into a PDF, " +
    'stores it and answers where to download it',
  inputs: PdfCreateInputs,
  details: StoredFileDetails,
  moreInputProblems: (inputs) => {
    if (typeof inputs.pdf_filename !== 'string') return [];
    const checked = checkPdfFilename(inputs.pdf_filename);
    return checked.ok ? [] : [`inputs.pdf_filename ${checked.reason}`];
  },
  async run(tools, { companyId, recordId, inputs, baseUrl }) {
    const { findRecord, templates, renderer, pdfInputLimitBytes, files, clock, outbox } = tools;
    const named = checkPdfFilename(inputs.pdf_filename);
    if (!named.ok) throw invalidBody(`invalid pdf_create inputs: inputs.pdf_filename ${named.reason}`);
    const pdfFilename = named.filename;
    // Refused before the record and template are read: a company that keeps asking while its
    // renders wait costs the other companies as little as it can.
    if (!renderer.admits(companyId)) throw renderFailure(new RendererUnavailableError(TOO_MANY_WAITING));
    const record = await findRecord(companyId, recordId);
    if (!record) throw notFound(`no record '${recordId}'`);
    const template = await templates.find(companyId, inputs.template_id);
    if (!template) throw templateNotFound(`no template '${inputs.template_id}'`);

    const values = recordInputs(record);
    const sizeBytes = inputBytes(values);
    if (sizeBytes > pdfInputLimitBytes) {
      throw cannotRender(
        `record '${recordId}' has ${sizeBytes} bytes of data (field names and values, UTF-8); ` +
          `a PDF render takes at most ${pdfInputLimitBytes} bytes (WRS_PDF_INPUT_LIMIT_BYTES)`,
        { size_bytes: sizeBytes, limit_bytes: pdfInputLimitBytes },
      );
    }

    let rendered;
    try {
      rendered = await renderer.render({
        companyId,
        template,
        inputs: values,
        title: pdfFilename.replace(/\.pdf$/i, ''),
        createdAt: clock.now().toISOString(),
      });
    } catch (error) {
      if (error instanceof RenderRejectedError) {
        throw cannotRender(`template '${inputs.template_id}' cannot render record '${recordId}': ${error.reason}`);
      }
      throw renderFailure(error);
    }
    const stored = await files.store(
      companyId,
      {
        recordId,
        filename: pdfFilename,
        contentType: PDF_CONTENT_TYPE,
        templateId: inputs.template_id,
        bytes: rendered.bytes,
        pages: rendered.pages,
        sha256: rendered.sha256,
      },
      (scope, file) => outbox.enqueue(scope, companyId, 'step.completed', { record_id: recordId, type: 'pdf_create', details: fileDetails(file, baseUrl) }),
    );
    return { message: 'PDF created', details: fileDetails(stored, baseUrl) };
  },
});
