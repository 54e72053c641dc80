import { freePort, startProcess, type RunningProcess } from './processes.js';
import type { ScenarioRow } from './report.js';
import type { Measured, ScenarioContext } from './scenarios.js';

/** The pages the prebuilt-bytes baseline answers: the service's own events-exact and 10,000-event pages. */
export const prebuiltPagePaths = (flowKey: string) => ({
  small: `/v1/events?limit=100&flow_key=${flowKey}`,
  large: '/v1/events?limit=10000',
});

export interface PageBaselines {
  rows: ScenarioRow[];
  smallRequestsPerSecond: number;
  largeRequestsPerSecond: number;
}

type Measure = (process: RunningProcess, url: string, connections?: number) => Promise<Measured>;
type Row = (name: string, measured: Measured) => ScenarioRow;

/**
 * Both pages as prebuilt bytes from memory (bench/baselines/prebuilt-bytes-server.ts): what the
 * service's answer costs beyond sending the bytes. The 10,000-event page is measured with one
 * connection, as the events-10000 row it is compared with.
 */
export async function measurePageBaselines(ctx: ScenarioContext, measure: Measure, row: Row): Promise<PageBaselines> {
  const baseline = await startPrebuiltServer(ctx);
  try {
    const small = await measure(baseline, `${baseline.baseUrl}/small`);
    const large = await measure(baseline, `${baseline.baseUrl}/large`, 1);
    return {
      rows: [row('baseline: prebuilt bytes, 100-event page', small), row('baseline: prebuilt bytes, 10,000-event page', large)],
      smallRequestsPerSecond: small.best.requestsPerSecond,
      largeRequestsPerSecond: large.best.requestsPerSecond,
    };
  } finally {
    await baseline.stop();
  }
}

/**
 * The events-exact page as prebuilt bytes, each answer after reading the company's data version
 * on the driver: the floor of a page served from a cache that any write, of any replica, must
 * invalidate for the very next request (the repeated-page scenarios).
 */
export async function measureVersionedPageBaseline(ctx: ScenarioContext, measure: Measure, row: Row): Promise<{ row: ScenarioRow; requestsPerSecond: number }> {
  const baseline = await startPrebuiltServer(ctx, { WRS_PREBUILT_VERSION_DB: ctx.databaseUrl, WRS_PREBUILT_COMPANY: ctx.largeCompany });
  try {
    const measured = await measure(baseline, `${baseline.baseUrl}/small`);
    return {
      row: row('baseline: data version read on the driver + prebuilt bytes, 100-event page', measured),
      requestsPerSecond: measured.best.requestsPerSecond,
    };
  } finally {
    await baseline.stop();
  }
}

async function startPrebuiltServer(ctx: ScenarioContext, env: Record<string, string> = {}): Promise<RunningProcess> {
  return startProcess(
    ['--import', 'tsx', 'bench/baselines/prebuilt-bytes-server.ts'],
    {
      WRS_PREBUILT_SOURCE: ctx.service.baseUrl,
      WRS_PREBUILT_TOKEN: ctx.token,
      WRS_PREBUILT_PAGES: JSON.stringify(prebuiltPagePaths(ctx.loaded.flowKey)),
      ...env,
    },
    await freePort(),
  );
}
