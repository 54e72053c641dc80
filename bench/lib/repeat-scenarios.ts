import { runLoad, type LoadOptions, type LoadResult } from './load.js';
import type { RunningProcess } from './processes.js';
import type { ScenarioRow } from './report.js';
import type { BenchSettings } from './settings.js';
// Types only: scenarios.ts calls this file, so nothing is imported from it at run time.
import type { ScenarioContext } from './scenarios.js';

interface Measured {
  best: LoadResult;
  errors: number;
}

/** How scenarios.ts measures and reports a scenario, handed in so every row is made the same way. */
export interface Harness<M extends Measured> {
  measure(process: RunningProcess, settings: BenchSettings, load: Omit<LoadOptions, 'connections' | 'durationSeconds'>): Promise<M>;
  row(name: string, measured: M, extra?: Partial<ScenarioRow>): ScenarioRow;
  selected(name: string): boolean;
}

const REPEAT_TARGET = 5;

/**
 * The events-exact page asked for again and again with nothing written between: served by the
 * page cache (only the data version is read), then the same with If-None-Match (a 304, no body).
 * Both are compared with the raw-driver baseline, which runs the page's SQL on every request,
 * and the repeated page also with its floor (`floor`): the version read and the prebuilt bytes.
 */
export async function repeatedPageScenarios<M extends Measured>(
  ctx: ScenarioContext,
  raw: M,
  harness: Harness<M>,
  floor?: { requestsPerSecond: number },
): Promise<ScenarioRow[]> {
  const { service, settings, loaded } = ctx;
  const url = `${service.baseUrl}/v1/events?limit=100&flow_key=${loaded.flowKey}`;
  const auth = { authorization: `Bearer ${ctx.token}` };
  const rows: ScenarioRow[] = [];
  const ratioToRaw = (measured: M) => measured.best.requestsPerSecond / raw.best.requestsPerSecond;

  if (harness.selected('events-repeat')) {
    const m = await harness.measure(service, settings, { url, headers: auth });
    const ratio = ratioToRaw(m);
    rows.push(
      harness.row('events-repeat: the same GET /v1/events?limit=100&flow_key=X page, repeated (page cache)', m, {
        read: true,
        ratio,
        baseline: 'raw',
        ...(floor ? { detail: `${(floor.requestsPerSecond / raw.best.requestsPerSecond).toFixed(2)}x raw for its floor (version read + prebuilt bytes)` } : {}),
        target: `>= ${REPEAT_TARGET}x raw`,
        met: ratio >= REPEAT_TARGET && m.errors === 0,
      }),
    );
  }

  if (harness.selected('events-304')) {
    const page = await fetch(url, { headers: auth });
    await page.arrayBuffer();
    const etag = page.headers.get('etag');
    if (page.status !== 200 || !etag) throw new Error(`events-304: the page answered ${page.status} without an ETag`);
    const headers = { ...auth, 'if-none-match': etag };
    // autocannon counts a 304 as non-2xx: the 304s of the measured runs are told apart from real
    // errors, so the warm-up runs here, outside the count.
    if (settings.warmupSeconds > 0) {
      await runLoad({ url, headers, connections: settings.connections, durationSeconds: settings.warmupSeconds });
    }
    let notModified = 0;
    const m = await harness.measure(
      service,
      { ...settings, warmupSeconds: 0 },
      {
        url,
        headers,
        requests: [
          {
            onResponse: (status) => {
              if (status === 304) notModified++;
            },
          },
        ],
      },
    );
    rows.push(
      harness.row('events-304: the same with If-None-Match (304, no body)', m, {
        read: true,
        ratio: ratioToRaw(m),
        baseline: 'raw',
        errors: m.errors - notModified,
      }),
    );
  }
  return rows;
}
