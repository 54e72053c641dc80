import { LARGE_COMPANY, RECORD_TYPE_IDS, companyEvents, companyId, companyRecords, flowKeys, recordTypeDefinition, type DataPlan } from './data.js';
import { jsonRequest, postNdjson } from './http-client.js';
import type { ScenarioRow } from './report.js';
import { SeededRandom } from './random.js';

export interface LoadedData {
  rows: ScenarioRow[];
  /** Records of the large company, for GET/PATCH scenarios. */
  recordIds: string[];
  /** Up to 1,000 records spread over the large company's, for reads of many records at once. */
  spreadRecordIds: string[];
  /** A flow key of the large company that has events. */
  flowKey: string;
  recordTypeId: string;
  templateId: string;
}

export interface LoadOptions {
  baseUrl: string;
  adminToken: string;
  plan: DataPlan;
  eventsPerCompany: number[];
  recordsPerCompany: number[];
}

function expectOk(what: string, status: number, body: unknown): void {
  if (status < 200 || status > 299) throw new Error(`${what} failed with ${status}: ${JSON.stringify(body).slice(0, 500)}`);
}

/**
 * Events one ingest request carries: a company of tens of millions of events (the large one at
 * `--events 30000000`) would take longer than the service's request timeout in one request.
 */
const EVENTS_PER_REQUEST = 2_000_000;

/** The next `count` items of `items`, as an iterable that stops there (the rest stays for the next call). */
function* take<T>(items: Iterator<T>, count: number): Generator<T> {
  for (let i = 0; i < count; i++) {
    const next = items.next();
    if (next.done) return;
    yield next.value;
  }
}

/** Loads the data set through the service's own operator routes, timing ingest and import. */
export async function loadDataSet(options: LoadOptions): Promise<LoadedData> {
  const { baseUrl, adminToken, plan } = options;
  const admin = (company: string, path: string) => `${baseUrl}/admin/v1/companies/${company}${path}`;

  for (let i = 0; i < plan.companies; i++) {
    for (const typeId of RECORD_TYPE_IDS) {
      const { status, json } = await jsonRequest('PUT', admin(companyId(i), `/record-types/${typeId}`), adminToken, recordTypeDefinition(typeId));
      expectOk('defining a record type', status, json);
    }
  }

  const rows: ScenarioRow[] = [];
  let started = performance.now();
  for (let i = 0; i < plan.companies; i++) {
    const events = companyEvents(i, options.eventsPerCompany[i]!);
    for (let sent = 0; sent < options.eventsPerCompany[i]!; sent += EVENTS_PER_REQUEST) {
      const { status, body } = await postNdjson(admin(companyId(i), '/events'), adminToken, take(events, EVENTS_PER_REQUEST));
      expectOk('ingesting events', status, body);
    }
  }
  let seconds = (performance.now() - started) / 1000;
  rows.push({
    name: 'ingest events (NDJSON stream)',
    unit: 'events/s',
    value: plan.events / seconds,
    detail: `${plan.events} events in ${seconds.toFixed(1)} s`,
  });

  started = performance.now();
  for (let i = 0; i < plan.companies; i++) {
    const { status, body } = await postNdjson(admin(companyId(i), '/records'), adminToken, companyRecords(i, options.recordsPerCompany[i]!));
    expectOk('importing records', status, body);
  }
  seconds = (performance.now() - started) / 1000;
  rows.push({
    name: 'import records (NDJSON stream)',
    unit: 'records/s',
    value: plan.records / seconds,
    detail: `${plan.records} records in ${seconds.toFixed(1)} s`,
  });

  const checks = Array.from(localChecks(Math.min(1000, plan.records)));
  const added = await jsonRequest('POST', admin(LARGE_COMPANY, '/checks'), adminToken, checks);
  expectOk('adding checks', added.status, added.json);

  const templateId = 'bench-template';
  const template = await jsonRequest('PUT', admin(LARGE_COMPANY, `/templates/${templateId}`), adminToken, benchTemplate());
  expectOk('storing a template', template.status, template.json);

  const largeRecords = options.recordsPerCompany[0]!;
  const recordIds = Array.from({ length: Math.min(50, largeRecords) }, (_, i) => `rec-0-${String(i * 7).padStart(7, '0')}`);
  const spread = Math.min(1000, largeRecords);
  const spreadRecordIds = Array.from({ length: spread }, (_, i) => `rec-0-${String(Math.floor((i * largeRecords) / spread)).padStart(7, '0')}`);
  return { rows, recordIds, spreadRecordIds, flowKey: flowKeys(0)[3]!, recordTypeId: RECORD_TYPE_IDS[0]!, templateId };
}

function* localChecks(count: number): Generator<Record<string, unknown>> {
  const random = new SeededRandom(99);
  const start = Date.parse('2026-09-01T00:00:00.000Z');
  for (let i = 0; i < count; i++) {
    const created = new Date(start + i * 3_600_000).toISOString();
    const scheduled = random.chance(0.3);
    yield {
      description: `Bench check ${i}`,
      amount: Math.round(random.next() * 500_000) / 100,
      memo: `Invoice ${1000 + i}`,
      check_number: 10_000 + i,
      mail_type: random.chance(0.8) ? 'usps_first_class' : 'ups_next_day_air',
      bank_account: 'bank_8cad8df5354d33f',
      to: {
        name: 'Harry Zhang',
        address_line1: '210 King St',
        address_city: 'San Francisco',
        address_state: 'CA',
        address_zip: '94107',
        address_country: 'US',
      },
      from: {
        name: 'Leore Avidar',
        address_line1: '185 Berry St Ste 6100',
        address_city: 'San Francisco',
        address_state: 'CA',
        address_zip: '94107',
        address_country: 'US',
      },
      date_created: created,
      send_date: scheduled ? new Date(Date.parse(created) + 3 * 86_400_000).toISOString() : created,
    };
  }
}

export function benchTemplate(): Record<string, unknown> {
  const field = (name: string, y: number) => ({ name, type: 'text', position: { x: 20, y }, width: 170, height: 10, fontSize: 12 });
  return {
    basePdf: { width: 210, height: 297, padding: [10, 10, 10, 10] },
    schemas: [[field('id', 20), field('status', 35), field('title', 50), field('amount', 65), field('due_date', 80)]],
  };
}
