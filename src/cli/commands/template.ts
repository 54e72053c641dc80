import { PdfTemplate } from '../../contracts/pdf-template.js';
import type { TemplateDocument } from '../../domain/templates/template-document.js';
import { bodyChecker } from '../../http/body-check.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { readJsonFile } from '../input-file.js';
import { parseIdCommand, plural, printResult, reportingFailures, withAppContext } from '../operator.js';

export const templatePutCommand: CliCommand = {
  name: 'template put',
  usage: 'wrs template put --company C --id T FILE [--json]',
  summary: 'store a pdfme template (checked and trial-rendered as the operator API does)',
  async run(argv) {
    const { companyId, id: templateId, json, file } = parseIdCommand(argv, 1, 'the pdfme template JSON');
    const { config } = cliConfig('existing');
    const checkOutline = bodyChecker(PdfTemplate);
    return reportingFailures(async () => {
      const body = await readJsonFile(file!, { limitBytes: config.pdf.templateLimitBytes, limitName: 'WRS_TEMPLATE_LIMIT_BYTES' });
      checkOutline(body, file!);
      const { created, template } = await withAppContext(config, (ctx) => ctx.templates.put(companyId, templateId, body));
      printResult(
        json,
        template,
        `template "${template.id}" ${created ? 'created' : 'replaced'} for company "${companyId}": ` +
          `${plural(template.size_bytes, 'byte')}, ${plural(template.pages, 'page')} in the trial render`,
      );
    });
  },
};

export const templateGetCommand: CliCommand = {
  name: 'template get',
  usage: 'wrs template get --company C --id T [--json]',
  summary: 'show a stored template (--json: the template itself, to edit and put back)',
  async run(argv) {
    const { companyId, id: templateId, json } = parseIdCommand(argv, 0, 'the pdfme template JSON');
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const template = await withAppContext(config, (ctx) => ctx.templates.get(companyId, templateId));
      printResult(json, template, `template "${templateId}" of company "${companyId}": ${describeTemplate(template)}`);
    });
  },
};

export const templateDeleteCommand: CliCommand = {
  name: 'template delete',
  usage: 'wrs template delete --company C --id T',
  summary: 'delete a template (PDFs rendered with it stay)',
  async run(argv) {
    const { companyId, id: templateId, json } = parseIdCommand(argv, 0, 'the pdfme template JSON');
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      await withAppContext(config, (ctx) => ctx.templates.delete(companyId, templateId));
      // The route answers 204 without a body: --json prints nothing.
      if (!json) console.log(`template "${templateId}" deleted from company "${companyId}"`);
    });
  },
};

function describeTemplate(template: TemplateDocument): string {
  const base = template.basePdf;
  const page = typeof base === 'string' ? 'a PDF as base page' : `blank ${(base as { width: number }).width} x ${(base as { height: number }).height} mm pages`;
  const names = template.schemas.flat().map((schema) => `${schema.name} (${schema.type})`);
  return `${plural(template.schemas.length, 'page')} of ${page}; ${plural(names.length, 'field')}: ${names.join(', ')}`;
}
