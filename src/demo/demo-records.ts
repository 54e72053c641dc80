import type { RecordTypesService } from '../domain/record-types/record-types-service.js';
import type { RecordsService } from '../domain/records/records-service.js';
import type { Clock } from '../lib/clock.js';

export interface DemoRecordsDeps {
  recordTypes: RecordTypesService;
  records: RecordsService;
  clock: Clock;
}

export const DEMO_RECORD_TYPE_ID = 'equipment-loan';

const LOAN_TYPE = {
  name: 'Equipment loan',
  fields: [
    { uid: 'fld_borrower', field_name: 'Borrower', type: 'string', required: true },
    { uid: 'fld_amount', field_name: 'Amount', type: 'number', required: true },
    { uid: 'fld_first_payment', field_name: 'First payment', type: 'date', required: false },
    { uid: 'fld_signed', field_name: 'Signed', type: 'boolean', required: false },
  ],
  statuses: ['new', 'in_review', 'approved', 'funded'],
  views: [
    { id: 'pipeline', name: 'Pipeline', statuses: ['new', 'in_review'] },
    { id: 'approved', name: 'Approved', statuses: ['approved', 'funded'] },
    { id: 'all-loans', name: 'All loans', statuses: [] },
  ],
};

const BORROWERS = ['Northwind Traders', 'Contoso Ltd', 'Fabrikam Inc', 'Tailspin Toys', 'Wide World Importers', 'Adventure Works'];

/**
 * Demo workboard of a company: a custom loan type with a dozen loans in every status, and
 * UCC filings and leased assets linked to them, spread over the last weeks. Adds only what the
 * company does not have yet (the type, records by id), so seeding twice changes nothing;
 * returns how many items it stored.
 */
export async function seedDemoRecords({ recordTypes, records, clock }: DemoRecordsDeps, companyId: string): Promise<number> {
  let stored = 0;
  if (!(await recordTypes.compiled(companyId, DEMO_RECORD_TYPE_ID))) {
    await recordTypes.put(companyId, DEMO_RECORD_TYPE_ID, LOAN_TYPE);
    stored += 1;
  }
  const now = clock.now().getTime();
  const at = (daysAgo: number, hour: number) => new Date(now - daysAgo * 86_400_000 + hour * 3_600_000 - (now % 86_400_000)).toISOString();

  const loans = Array.from({ length: 12 }, (_, i) => {
    const createdAt = at(30 - i * 2, 9 + (i % 5));
    return {
      id: `demo-loan-${String(i + 1).padStart(2, '0')}`,
      record_type: 'custom',
      uid: DEMO_RECORD_TYPE_ID,
      status: LOAN_TYPE.statuses[i % LOAN_TYPE.statuses.length]!,
      parent_record: null,
      child_records: i < 4 ? [{ id: `demo-ucc-${i + 1}`, record_type: 'uccfiling' }] : [],
      fields: {
        Borrower: BORROWERS[i % BORROWERS.length]!,
        Amount: 25_000 + i * 7_500,
        ...(i % 3 === 0 ? {} : { 'First payment': at(-30 - i, 0).slice(0, 10) }),
        Signed: i % 4 >= 2,
      },
      linked: i % 2 === 0 ? { crm: { opportunity: { id: `opp-${1000 + i}`, stage: 'negotiation' } } } : {},
      created_at: createdAt,
      updated_at: at(30 - i * 2 - 1, 11),
    };
  });
  const filings = Array.from({ length: 4 }, (_, i) => ({
    id: `demo-ucc-${i + 1}`,
    record_type: 'uccfiling',
    status: i === 3 ? 'lapsed' : 'filed',
    parent_record: { id: `demo-loan-${String(i + 1).padStart(2, '0')}`, record_type: 'custom' },
    child_records: [{ id: `demo-asset-${i + 1}`, record_type: 'infoleaseasset' }],
    instance: { filing_number: `2026-${String(48_000 + i)}`, jurisdiction: ['DE', 'NY', 'CA', 'TX'][i], debtor: BORROWERS[i] },
    linked: {},
    views: i === 3 ? ['ucc-lapsed'] : ['ucc-active'],
    created_at: at(29 - i * 2, 15),
    updated_at: at(29 - i * 2, 15),
  }));
  const assets = Array.from({ length: 4 }, (_, i) => ({
    id: `demo-asset-${i + 1}`,
    record_type: 'infoleaseasset',
    status: 'on_lease',
    parent_record: { id: `demo-ucc-${i + 1}`, record_type: 'uccfiling' },
    child_records: [],
    instance: { asset_number: `EQ-${500 + i}`, description: ['Forklift', 'CNC mill', 'Excavator', 'Box truck'][i], cost: 18_000 + i * 4_250 },
    views: ['assets'],
    created_at: at(28 - i * 2, 10),
    updated_at: at(28 - i * 2, 10),
  }));
  const missing: Array<(typeof loans)[number] | (typeof filings)[number] | (typeof assets)[number]> = [];
  for (const record of [...loans, ...filings, ...assets]) {
    if (!(await records.exists(companyId, record.id))) missing.push(record);
  }
  if (missing.length === 0) return stored;
  return stored + (await records.import(companyId, [JSON.stringify(missing)], { format: 'array' }));
}
