import type { TemplateService } from '../domain/templates/template-service.js';

export interface DemoTemplatesDeps {
  templates: TemplateService;
}

export const DEMO_TEMPLATE_ID = 'loan-summary';

const A4 = { width: 210, height: 297, padding: [10, 10, 10, 10] };

const label = (name: string, y: number, content: string) => ({
  name,
  type: 'text',
  readOnly: true,
  content,
  position: { x: 20, y },
  width: 45,
  height: 8,
  fontSize: 11,
  fontColor: '#555555',
});

/** A box that the record fills: its schema name is a field name of the loan type, or id, status, created_at. */
const value = (name: string, y: number, sample: string) => ({
  name,
  type: 'text',
  content: sample,
  position: { x: 70, y },
  width: 120,
  height: 8,
  fontSize: 11,
});

/**
 * A one-page summary of an equipment loan: the heading names the record and its status, and each
 * line shows one field of the demo's loan type, so `pdf_create` can be tried on any demo loan.
 */
const LOAN_SUMMARY = {
  basePdf: A4,
  schemas: [
    [
      {
        name: 'heading',
        type: 'text',
        readOnly: true,
        content: 'Equipment loan {id} ({status})',
        position: { x: 20, y: 20 },
        width: 170,
        height: 12,
        fontSize: 18,
      },
      label('borrower-label', 40, 'Borrower'),
      value('Borrower', 40, 'Northwind Traders'),
      label('amount-label', 50, 'Amount'),
      value('Amount', 50, '25000'),
      label('first-payment-label', 60, 'First payment'),
      value('First payment', 60, '2026-12-31'),
      label('signed-label', 70, 'Signed'),
      value('Signed', 70, 'false'),
      label('created-label', 80, 'Created'),
      value('created_at', 80, '2026-01-01T00:00:00.000Z'),
    ],
  ],
};

/** Stores the demo's PDF template unless the company has one of that ID; returns how many it stored. */
export async function seedDemoTemplates({ templates }: DemoTemplatesDeps, companyId: string): Promise<number> {
  if (await templates.find(companyId, DEMO_TEMPLATE_ID)) return 0;
  await templates.put(companyId, DEMO_TEMPLATE_ID, LOAN_SUMMARY);
  return 1;
}
