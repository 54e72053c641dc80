import { SeededRandom } from './random.js';

/** Shape of the benchmark data set; the full run uses the sizes, the smoke run tiny ones. */
export interface DataPlan {
  companies: number;
  events: number;
  /** Share of all events held by the first company. */
  largeCompanyShare: number;
  records: number;
}

export const FULL_PLAN: DataPlan = { companies: 100, events: 1_000_000, largeCompanyShare: 0.4, records: 100_000 };
export const SMOKE_PLAN: DataPlan = { companies: 3, events: 3_000, largeCompanyShare: 0.4, records: 600 };

export const companyId = (index: number): string => `bench-company-${String(index).padStart(3, '0')}`;
export const LARGE_COMPANY = companyId(0);

const EVENT_TYPES = [
  ['user_flow_session_started', 20],
  ['user_flow_step_viewed', 40],
  ['user_flow_step_completed', 25],
  ['user_flow_decision_selected', 8],
  ['user_flow_session_completed', 5],
  ['user_liked_step', 2],
] as const;
const TYPE_WHEEL = EVENT_TYPES.flatMap(([type, weight]) => Array<string>(weight).fill(type));
const FLOW_WORDS = ['onboarding', 'invoice-approval', 'ucc-filing', 'asset-return', 'kyc-review', 'lease-renewal', 'claims', 'payout'];
const DECISIONS = ['Approve', 'Reject', 'Escalate', 'Request more info'];
const START = Date.parse('2026-08-01T00:00:00.000Z');
const SPAN_MS = 90 * 86_400_000;

export function eventsPerCompany(plan: DataPlan): number[] {
  const large = Math.round(plan.events * plan.largeCompanyShare);
  const rest = plan.events - large;
  const others = plan.companies - 1;
  return Array.from({ length: plan.companies }, (_, i) => (i === 0 ? large : Math.floor(rest / others) + (i - 1 < rest % others ? 1 : 0)));
}

/** Flow keys of a company: `flow_key` exact-filter scenarios pick from these. */
export function flowKeys(companyIndex: number): string[] {
  return FLOW_WORDS.flatMap((word) => Array.from({ length: 6 }, (_, v) => `${word}-${companyIndex}-${v}`));
}

/**
 * A company's events in creation order, like real traffic: sessions of a few steps by a pool of
 * users across a few dozen flows, over 90 days.
 */
export function* companyEvents(companyIndex: number, count: number, seed = 42): Generator<Record<string, unknown>> {
  const random = new SeededRandom(seed * 1000 + companyIndex);
  const flows = flowKeys(companyIndex);
  const users = Array.from({ length: 200 }, () => random.uuid());
  const connections = Array.from({ length: 12 }, (_, i) => `conn-${companyIndex}-${['salesforce', 'hubspot', 'netsuite', 'box'][i % 4]}-${i}`);
  const step = SPAN_MS / Math.max(count, 1);
  let session = 0;
  let flowKey = flows[0]!;
  let userId = users[0]!;
  for (let i = 0; i < count; i++) {
    const type = i === 0 || random.chance(0.12) ? 'user_flow_session_started' : random.pick(TYPE_WHEEL);
    if (type === 'user_flow_session_started') {
      session++;
      flowKey = random.pick(flows);
      userId = random.pick(users);
    }
    const createdAt = new Date(START + Math.floor(i * step + random.next() * step)).toISOString();
    yield {
      id: `evt-${companyIndex}-${String(i).padStart(8, '0')}`,
      type,
      created_at: createdAt,
      updated_at: createdAt,
      excluded: random.chance(0.02),
      connection_id: random.chance(0.7) ? `cid-${companyIndex}-${random.int(12)}` : null,
      connection_key: random.chance(0.7) ? random.pick(connections) : null,
      flow_id: `fid-${flowKey}`,
      flow_key: flowKey,
      flow_session: session,
      like_value: type === 'user_liked_step' ? random.int(5) + 1 : null,
      seconds_active: Math.round(random.next() * 600 * 10) / 10,
      seconds_running: Math.round(random.next() * 3600 * 10) / 10,
      selected_decision: type === 'user_flow_decision_selected' ? random.pick(DECISIONS) : null,
      step_key: `step-${random.int(12)}`,
      text: random.chance(0.3) ? `note ${random.int(100_000)} on ${flowKey}` : null,
      user_id: userId,
      version_id: `vid-${flowKey}-${random.int(4)}`,
      version_key: `v${random.int(4) + 1}`,
    };
  }
}

export const RECORD_TYPE_IDS = ['bench-invoice', 'bench-asset', 'bench-case'];
const STATUSES = ['new', 'in_review', 'approved', 'rejected', 'archived'];

/** The record type every company defines, with fields of all four kinds and a few views. */
export function recordTypeDefinition(typeId: string): Record<string, unknown> {
  return {
    name: `Bench ${typeId}`,
    fields: [
      { uid: 'f_title', field_name: 'title', type: 'string', required: true },
      { uid: 'f_amount', field_name: 'amount', type: 'number', required: false },
      { uid: 'f_urgent', field_name: 'urgent', type: 'boolean', required: false },
      { uid: 'f_due', field_name: 'due_date', type: 'date', required: false },
    ],
    statuses: STATUSES,
    views: [
      { id: 'open', name: 'Open', statuses: ['new', 'in_review'] },
      { id: 'done', name: 'Done', statuses: ['approved', 'rejected', 'archived'] },
      { id: 'all', name: 'All', statuses: [] },
    ],
  };
}

/** Records for the import route, in the Record shape, spread over the types. */
export function* companyRecords(companyIndex: number, count: number, seed = 42): Generator<Record<string, unknown>> {
  const random = new SeededRandom(seed * 7000 + companyIndex);
  const step = SPAN_MS / Math.max(count, 1);
  for (let i = 0; i < count; i++) {
    const typeId = RECORD_TYPE_IDS[i % RECORD_TYPE_IDS.length]!;
    const createdAt = new Date(START + Math.floor(i * step + random.next() * step)).toISOString();
    const status = random.pick(STATUSES);
    yield {
      id: recordId(companyIndex, i),
      record_type: 'custom',
      uid: typeId,
      status,
      fields: {
        title: `Item ${i} of company ${companyIndex}`,
        amount: random.int(1_000_000) / 100,
        urgent: random.chance(0.1),
        due_date: new Date(START + random.int(SPAN_MS)).toISOString().slice(0, 10),
      },
      parent_record: null,
      child_records: [],
      linked: {},
      views: status === 'new' || status === 'in_review' ? ['open', 'all'] : ['done', 'all'],
      created_at: createdAt,
      updated_at: createdAt,
    };
  }
}

export function recordsPerCompany(plan: DataPlan): number[] {
  const large = Math.round(plan.records * plan.largeCompanyShare);
  const rest = plan.records - large;
  const others = plan.companies - 1;
  return Array.from({ length: plan.companies }, (_, i) => (i === 0 ? large : Math.floor(rest / others) + (i - 1 < rest % others ? 1 : 0)));
}

/** The id `companyRecords` gives a company's `index`th record. */
export const recordId = (companyIndex: number, index: number): string => `rec-${companyIndex}-${String(index).padStart(7, '0')}`;
