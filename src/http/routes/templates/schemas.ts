import { Type } from '@sinclair/typebox';
import { CompanyId } from '../../schemas/company.js';

export const TemplateParams = Type.Object({
  company: CompanyId(),
  templateId: Type.String({ minLength: 1, maxLength: 128, description: 'letters, digits and . _ ~ -' }),
});

export const TemplateSummary = Type.Object(
  {
    id: Type.String(),
    company_id: Type.String(),
    size_bytes: Type.Integer({ description: 'stored size of the template JSON' }),
    pages: Type.Integer({ description: 'pages of the trial render at upload' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'TemplateSummary' },
);

export const TemplateList = Type.Object({ count: Type.Integer(), results: Type.Array(TemplateSummary) }, { title: 'TemplateList' });

export const TEMPLATE_SUMMARY_EXAMPLE = {
  id: 'loan-summary',
  company_id: 'demo-company',
  size_bytes: 1532,
  pages: 1,
  created_at: '2026-11-21T09:30:00.000Z',
  updated_at: '2026-11-21T09:30:00.000Z',
};
