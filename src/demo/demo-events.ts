import type { EventsService } from '../domain/events/events-service.js';
import type { Clock } from '../lib/clock.js';
import { uuidv7 } from '../lib/ids.js';

export interface DemoEventsDeps {
  readonly events: EventsService;
  readonly clock: Clock;
}

interface DemoStep {
  readonly key: string;
  /** Branch titles of a Decision step. */
  readonly decisions?: readonly string[];
}

interface DemoFlow {
  readonly key: string;
  readonly connection: { readonly id: string; readonly key: string };
  readonly steps: readonly DemoStep[];
}

const FLOWS: readonly DemoFlow[] = [
  {
    key: 'employee-onboarding',
    connection: { id: 'conn_01', key: 'bamboohr' },
    steps: [
      { key: 'collect-documents' },
      { key: 'it-setup' },
      { key: 'manager-approval', decisions: ['Approve', 'Needs changes', 'Reject'] },
      { key: 'welcome-call' },
    ],
  },
  {
    key: 'vendor-onboarding',
    connection: { id: 'conn_02', key: 'netsuite' },
    steps: [{ key: 'company-details' }, { key: 'tax-forms' }, { key: 'compliance-review', decisions: ['Approve', 'Reject'] }, { key: 'bank-details' }],
  },
  {
    key: 'invoice-approval',
    connection: { id: 'conn_03', key: 'quickbooks' },
    steps: [{ key: 'upload-invoice' }, { key: 'match-po' }, { key: 'approval', decisions: ['Approve', 'Escalate', 'Reject'] }, { key: 'schedule-payment' }],
  },
  {
    key: 'contract-renewal',
    connection: { id: 'conn_04', key: 'docusign' },
    steps: [{ key: 'review-terms' }, { key: 'legal-review', decisions: ['Renew', 'Renegotiate', 'Cancel'] }, { key: 'sign' }],
  },
];

const SESSIONS_PER_FLOW = 16;
const DAY_MS = 86_400_000;

/** mulberry32: the same demo data on every run (apart from times and event ids). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function userId(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Math.floor(random() * 4)]}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/**
 * A few hundred events of four flows over the last two weeks: sessions started by eight users,
 * steps completed, decisions taken, sessions completed or abandoned, the odd like, across two
 * versions of each flow.
 */
export function demoEvents(now: Date): Record<string, unknown>[] {
  const random = seededRandom(20_261_121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const users = Array.from({ length: 8 }, () => userId(random));
  const start = now.getTime() - 14 * DAY_MS;
  const events: Record<string, unknown>[] = [];

  for (const flow of FLOWS) {
    for (let session = 1; session <= SESSIONS_PER_FLOW; session++) {
      const version = session <= SESSIONS_PER_FLOW / 2 ? 1 : 2;
      const user = pick(users);
      let at = start + Math.floor(random() * 13 * DAY_MS);
      const common = {
        connection_id: flow.connection.id,
        connection_key: flow.connection.key,
        flow_id: `flow_${flow.key.replaceAll('-', '_')}`,
        flow_key: flow.key,
        flow_session: session,
        user_id: user,
        version_id: `ver_${flow.key.replaceAll('-', '_')}_${version}`,
        version_key: `v${version}`,
      };
      const event = (type: string, fields: Record<string, unknown> = {}) => {
        const createdAt = new Date(at).toISOString();
        events.push({ id: uuidv7(at), type, created_at: createdAt, updated_at: createdAt, ...common, ...fields });
      };

      event('user_flow_session_started', {
        version_object: { version, flow_key: flow.key, steps: flow.steps.map((step) => step.key) },
      });
      const abandonAt = random() < 0.2 ? 1 + Math.floor(random() * (flow.steps.length - 1)) : -1;
      let running = 0;
      for (const [index, step] of flow.steps.entries()) {
        if (index === abandonAt) {
          event('user_flow_session_abandoned', { step_key: step.key, seconds_running: running });
          break;
        }
        const active = Math.round(random() * 300 * 10) / 10;
        running += active + Math.round(random() * 3600);
        at += Math.floor(random() * 6 * 3_600_000) + 60_000;
        if (step.decisions) {
          const decision = pick(step.decisions);
          event('user_flow_decision_selected', {
            step_key: step.key,
            selected_decision: decision,
            seconds_active: active,
            seconds_running: running,
            text: random() < 0.5 ? `${decision}: ${pick(['all documents in order', 'missing signature', 'checked with finance', 'see attached notes'])}` : null,
          });
          if (decision === 'Reject' || decision === 'Cancel') {
            event('user_flow_session_completed', { step_key: step.key, seconds_running: running });
            break;
          }
        } else {
          event('user_flow_step_completed', { step_key: step.key, seconds_active: active, seconds_running: running });
        }
        if (random() < 0.1) event('user_flow_step_liked', { step_key: step.key, like_value: random() < 0.8 ? 1 : -1 });
        if (index === flow.steps.length - 1) event('user_flow_session_completed', { step_key: step.key, seconds_running: running });
      }
    }
  }
  return events;
}

/** Ingests the demo events into a company that has none yet; returns how many were stored. */
export async function seedDemoEvents({ events, clock }: DemoEventsDeps, companyId: string): Promise<number> {
  if (await events.hasEvents(companyId)) return 0;
  const { ingested } = await events.ingest(companyId, [JSON.stringify(demoEvents(clock.now()))], { format: 'array' });
  return ingested;
}
