import type { TSchema } from '@sinclair/typebox';

/**
 * Examples of the 2xx answers for the OpenAPI document. @fastify/swagger moves a response
 * schema's `examples` into the media type's `example`, where the Redocly lint checks each one
 * against its schema (no-invalid-media-type-examples).
 */
export function withExample<T extends TSchema>(schema: T, example: unknown, description?: string): T {
  return { ...schema, examples: [example], ...(description === undefined ? {} : { description }) };
}

const COMPANY = 'demo-company';
const RECORD_ID = '019aa5c2-7f3e-7b21-9c4d-3e5f6a7b8c9d';
const CREATED = '2026-11-21T15:04:05.123Z';
const UPDATED = '2026-11-21T16:10:00.000Z';

export const exampleRecord = {
  id: RECORD_ID,
  record_type: 'custom',
  uid: 'loan',
  status: 'new',
  parent_record: null,
  child_records: [],
  fields: { Borrower: 'Ada Lovelace', Amount: 12500, Approved: false, 'Due date': '2026-12-31' },
  linked: {},
  views: ['open', 'all'],
  created_at: CREATED,
  updated_at: UPDATED,
};

export const exampleEvent = {
  id: '019aa5c1-0d2e-7a10-8b3c-4d5e6f708192',
  company_id: COMPANY,
  connection_id: null,
  connection_key: null,
  created_at: CREATED,
  excluded: false,
  flow_id: 'flow-1',
  flow_key: 'loan-intake',
  flow_session: 3,
  like_value: null,
  seconds_active: 42.5,
  seconds_running: 61,
  selected_decision: 'Approve',
  step_key: 'decision-1',
  text: null,
  type: 'user_flow_session_step_completed',
  updated_at: CREATED,
  user_id: '9b2f3c1e-5a4d-4e8f-9c7b-2d1e0f3a4b5c',
  version_id: 'ver-7',
  version_key: 'v7',
};

const tokenSummary = {
  company_id: COMPANY,
  companyId: COMPANY,
  created_at: '2026-11-21T15:04:05Z',
  createdAt: { _seconds: 1795359845, _nanoseconds: 0 },
  expires_at: '2026-11-22T15:04:05Z',
  expires: 86400,
  key: '019aa5c3-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  record_id: RECORD_ID,
  recordId: RECORD_ID,
  type: 'record',
  user_id: 'user-1',
  userId: 'user-1',
  label: 'sent to J. Smith, borrower',
  fields: ['borrower', 'amount'],
  status_editable: false,
  access: {
    fields: [
      { uid: 'borrower', editable: false },
      { uid: 'amount', editable: true },
    ],
    status_editable: false,
  },
};

export const exampleRecordTokenSummary = tokenSummary;
export const exampleRecordToken = { ...tokenSummary, token: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXBlIjoicmVjb3JkIn0.c2lnbmF0dXJl' };

export const exampleCheck = {
  id: 'chk_534f10783683daa0',
  description: 'Loan payout',
  metadata: { record: RECORD_ID },
  check_number: 10042,
  memo: 'rent',
  amount: 1250.5,
  to: {
    name: 'Ada Lovelace',
    address_line1: '185 Berry St',
    address_city: 'San Francisco',
    address_state: 'CA',
    address_zip: '94107',
  },
  from: { name: 'Demo Company', address_line1: '1 Main St', address_city: 'Austin', address_state: 'TX', address_zip: '78701' },
  carrier: 'USPS',
  mail_type: 'usps_first_class',
  date_created: CREATED,
  date_modified: CREATED,
  send_date: CREATED,
  object: 'check',
};

export const exampleRecordType = {
  id: 'loan',
  name: 'Loan',
  fields: [
    { uid: 'borrower', field_name: 'Borrower', type: 'string', required: true },
    { uid: 'amount', field_name: 'Amount', type: 'number', required: false },
    { uid: 'approved', field_name: 'Approved', type: 'boolean', required: false },
    { uid: 'due', field_name: 'Due date', type: 'date', required: false },
  ],
  statuses: ['new', 'approved'],
  views: [
    { id: 'open', name: 'Open', statuses: ['new'] },
    { id: 'all', name: 'All', statuses: [] },
  ],
  form: {
    title: 'Equipment loan',
    instructions: 'Check your name and enter the amount you need.',
    fields: [
      { uid: 'borrower', editable: false },
      { uid: 'amount', editable: true },
      { uid: 'due', editable: true },
    ],
    status_editable: false,
  },
  version: 1,
  created_at: CREATED,
  updated_at: CREATED,
};

export const exampleTemplate = {
  id: 'invoice',
  company_id: COMPANY,
  size_bytes: 2048,
  pages: 1,
  created_at: CREATED,
  updated_at: CREATED,
};

export const exampleProviderStatus = {
  company_id: COMPANY,
  provider: 'local',
  key_source: 'none',
  lob: { configured: false, key_last4: null, updated_at: null },
  global_lob_key: false,
};

export const examplePdfCreated = {
  message: 'PDF created',
  details: {
    file_id: '019aa5c4-2b3c-7d4e-9f50-6a7b8c9d0e1f',
    pdf_filename: 'invoice.pdf',
    content_type: 'application/pdf',
    size_bytes: 18342,
    pages: 1,
    sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    download_url: `https://wrs.example.org/v1/records/${RECORD_ID}/files/019aa5c4-2b3c-7d4e-9f50-6a7b8c9d0e1f`,
    created_at: CREATED,
  },
};

export const exampleRecordsPage = {
  count: 1,
  next: `https://wrs.example.org/v1/records?record_type=custom&next=${RECORD_ID}`,
  prev: null,
  results: [exampleRecord],
};

export const exampleChecksPage = {
  count: 1,
  results: [exampleCheck],
  next_url: 'https://wrs.example.org/v1/checks?limit=100&after=eyJpZCI6ImNoa181MzRmMTA3ODM2ODNkYWEwIn0',
  previous_url: null,
};

export const exampleRecordTypeList = { count: 1, results: [exampleRecordType] };

export const examplePdfTemplate = {
  basePdf: { width: 210, height: 297, padding: [10, 10, 10, 10] },
  schemas: [[{ name: 'Borrower', type: 'text', position: { x: 20, y: 20 }, width: 100, height: 10 }]],
};

export const exampleMintedToken = {
  token: 'eyJhbGciOiJIUzI1NiJ9.eyJjb21wYW55X2lkIjoiZGVtby1jb21wYW55In0.c2lnbmF0dXJl',
  token_type: 'Bearer',
  company_id: COMPANY,
  user_id: 'user-1',
  expires_at: '2026-11-22T15:04:05.000Z',
};

/**
 * A whole PDF (one blank A4 page) as the download's example: a mock server or a docs page
 * that serves it gives a file a PDF reader opens. Its cross-reference table is counted here,
 * so the offsets are right.
 */
export const examplePdf = ((): string => {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> >>',
  ];
  let pdf = '%PDF-1.7\n';
  const offsets = objects.map((object, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  return `${pdf}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
})();
