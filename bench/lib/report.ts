import type { DataPlan } from './data.js';
import type { BenchSettings } from './settings.js';

export interface ScenarioRow {
  name: string;
  /** For load scenarios: best of the runs. */
  requestsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** A read scenario: its tail is held to p99 within TAIL_BOUND times p50. */
  read?: boolean;
  peakRssMb?: number;
  /** For throughput rows (ingest): a figure and its unit. */
  value?: number;
  unit?: string;
  ratio?: number;
  baseline?: string;
  /** req/s over the same page's prebuilt-bytes baseline (bench/lib/page-baselines.ts). */
  prebuiltRatio?: number;
  errors?: number;
  target?: string;
  met?: boolean;
  detail?: string;
}

export interface ReportInput {
  rows: ScenarioRow[];
  dbKind: string;
  smoke: boolean;
  settings: BenchSettings;
  plan: DataPlan;
  peakRss: number;
  /** What the run was doing when the peak was sampled. */
  peakPhase: string;
  /** The service's RSS once started, before any data or load. */
  idleRss: number;
  /** What the service process alone was started with beyond the bench's own settings (--service-env). */
  serviceEnv?: Record<string, string>;
  machine: string;
}

/** Reads keep p99 within this many times p50. */
export const TAIL_BOUND = 3;
export const PEAK_RSS_TARGET_MB = 300;
export const IDLE_RSS_TARGET_MB = 100;

function tail(row: ScenarioRow): string {
  if (row.p50Ms === undefined || row.p99Ms === undefined || row.p50Ms <= 0) return '';
  const ratio = row.p99Ms / row.p50Ms;
  return row.read ? `${ratio.toFixed(2)}${ratio <= TAIL_BOUND ? '' : ' (NO)'}` : ratio.toFixed(2);
}

function serviceEnvLine(env: Record<string, string> | undefined): string[] {
  const entries = Object.entries(env ?? {});
  return entries.length === 0 ? [] : [`- service started with: ${entries.map(([key, value]) => `\`${key}=${value}\``).join(', ')}`];
}

const fmt = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));

export function formatReport(input: ReportInput): string {
  const peakMb = input.peakRss / 2 ** 20;
  const idleMb = input.idleRss / 2 ** 20;
  const lines = [
    `# wrs benchmark: ${input.dbKind}${input.smoke ? ' (smoke run: tiny data, not a measurement)' : ''}`,
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${input.machine}; node ${process.version}`,
    `- data: ${input.plan.events} events over ${input.plan.companies} companies (${input.plan.largeCompanyShare * 100}% in one), ${input.plan.records} records`,
    ...serviceEnvLine(input.serviceEnv),
    `- load: autocannon, ${input.settings.connections} connections, ${input.settings.durationSeconds} s a run, ${input.settings.warmupSeconds} s warm-up, ${input.settings.runs} runs each (best shown); latencies to the microsecond`,
    `- service RSS idle after start: ${idleMb.toFixed(0)} MB (target < ${IDLE_RSS_TARGET_MB} MB: ${idleMb < IDLE_RSS_TARGET_MB ? 'met' : 'MISSED'})`,
    `- service peak RSS over the whole run: ${peakMb.toFixed(0)} MB, during ${input.peakPhase || 'the start'} (target < ${PEAK_RSS_TARGET_MB} MB: ${peakMb < PEAK_RSS_TARGET_MB ? 'met' : 'MISSED'})`,
    `- p99/p50: the tail of each run; reads at ${input.settings.connections} connections are held to ${TAIL_BOUND}x ("(NO)" marks a read above it)`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | p99/p50 | peak RSS MB | other | ratio to baseline | ratio to prebuilt bytes | errors | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...input.rows.map((row) =>
      [
        row.name,
        fmt(row.requestsPerSecond),
        fmt(row.p50Ms, 2),
        fmt(row.p99Ms, 2),
        tail(row),
        fmt(row.peakRssMb),
        row.value === undefined ? (row.detail ?? '') : `${fmt(row.value)} ${row.unit ?? ''}${row.detail ? ` (${row.detail})` : ''}`,
        row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x ${row.baseline ?? ''}`,
        row.prebuiltRatio === undefined ? '' : `${row.prebuiltRatio.toFixed(2)}x`,
        row.errors === undefined ? '' : String(row.errors),
        row.target ?? '',
        row.met === undefined ? '' : row.met ? 'yes' : 'NO',
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .replace(/$/, ' |'),
    ),
    '',
  ];
  return lines.join('\n');
}
