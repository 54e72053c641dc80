import { invalidBody, notFound } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { RenderRejectedError, type PdfRenderer } from './pdf-renderer.port.js';
import { renderFailure } from './render-failure.js';
import type { TemplateChecker } from './template-checker.port.js';
import type { TemplateDocument } from './template-document.js';
import type { TemplateRow, TemplatesRepository } from './templates-repository.port.js';

/** Template IDs are chosen by the operator and appear in step inputs. */
const TEMPLATE_ID = /^[A-Za-z0-9._~-]{1,128}$/;

export interface TemplateSummary {
  id: string;
  company_id: string;
  size_bytes: number;
  pages: number;
  created_at: string;
  updated_at: string;
}

export interface TemplateService {
  /** Checks, trial-renders and stores a template; a template that cannot render is a 400. */
  put(companyId: string, templateId: string, body: unknown): Promise<{ created: boolean; template: TemplateSummary }>;
  /** The company's templates, by ID, without their bodies. */
  list(companyId: string): Promise<TemplateSummary[]>;
  /** The template as stored, or a 404. */
  get(companyId: string, templateId: string): Promise<TemplateDocument>;
  /** The template as stored, or null. */
  find(companyId: string, templateId: string): Promise<TemplateDocument | null>;
  delete(companyId: string, templateId: string): Promise<void>;
}

/** What the template service is built from. */
export interface TemplateServiceDeps {
  templates: TemplatesRepository;
  checker: TemplateChecker;
  renderer: PdfRenderer;
  clock: Clock;
}

export function createTemplateService(deps: TemplateServiceDeps): TemplateService {
  const { templates, checker, renderer, clock } = deps;

  const find = async (companyId: string, templateId: string): Promise<TemplateDocument | null> => {
    const row = await templates.find(companyId, templateId);
    return row ? (JSON.parse(row.template_json) as TemplateDocument) : null;
  };

  return {
    async put(companyId, templateId, body) {
      if (!TEMPLATE_ID.test(templateId)) {
        throw invalidBody('a template ID is 1 to 128 letters, digits, dots, underscores, tildes or hyphens');
      }
      const template = await checker.check(body);
      const at = clock.now().toISOString();
      let pages: number;
      try {
        ({ pages } = await renderer.render({ companyId, template, inputs: await checker.sampleInputs(template), title: templateId, createdAt: at }));
      } catch (error) {
        if (error instanceof RenderRejectedError) throw invalidBody(`the template cannot render: ${error.reason}`);
        throw renderFailure(error);
      }
      if (pages === 0) throw invalidBody('the template cannot render: it produces no pages');
      const templateJson = JSON.stringify(template);
      const { created, row } = await templates.save(companyId, {
        id: templateId,
        templateJson,
        sizeBytes: Buffer.byteLength(templateJson),
        pages,
        at,
      });
      return { created, template: toSummary(row) };
    },

    async list(companyId) {
      return (await templates.list(companyId)).map(toSummary);
    },

    async get(companyId, templateId) {
      const template = await find(companyId, templateId);
      if (!template) throw notFound(`no template '${templateId}'`);
      return template;
    },

    find,

    async delete(companyId, templateId) {
      if (!(await templates.delete(companyId, templateId))) throw notFound(`no template '${templateId}'`);
    },
  };
}

function toSummary(row: Omit<TemplateRow, 'template_json'>): TemplateSummary {
  return {
    id: row.id,
    company_id: row.company_id,
    size_bytes: row.size_bytes,
    pages: row.pages,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
