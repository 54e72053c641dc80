import type { DataPlan } from './data.js';
import type { BenchSettings } from './settings.js';

export interface ScenarioRow {
  name: string;
  /** For load scenarios: best of the runs. */
  requestsPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  peakRssMb?: number;
  /** For throughput rows (ingest): a figure and its unit. */
  value?: number;
  unit?: string;
  ratio?: number;
  baseline?: string;
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
  machine: string;
}

const fmt = (value: number | undefined, digits = 0) => (value === undefined ? '' : value.toFixed(digits));

export function formatReport(input: ReportInput): string {
  const peakMb = input.peakRss / 2 ** 20;
  const lines = [
    `# wrs benchmark: ${input.dbKind}${input.smoke ? ' (smoke run: tiny data, not a measurement)' : ''}`,
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${input.machine}; node ${process.version}`,
    `- data: ${input.plan.events} events over ${input.plan.companies} companies (${input.plan.largeCompanyShare * 100}% in one), ${input.plan.records} records`,
    `- load: autocannon, ${input.settings.connections} connections, ${input.settings.durationSeconds} s a run, ${input.settings.warmupSeconds} s warm-up, ${input.settings.runs} runs each (best shown)`,
    `- service peak RSS over the whole run: ${peakMb.toFixed(0)} MB (target < 200 MB: ${peakMb < 200 ? 'met' : 'MISSED'})`,
    '',
    '| scenario | req/s | p50 ms | p99 ms | peak RSS MB | other | ratio to baseline | errors | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...input.rows.map((row) =>
      [
        row.name,
        fmt(row.requestsPerSecond),
        fmt(row.p50Ms, 1),
        fmt(row.p99Ms, 1),
        fmt(row.peakRssMb),
        row.value === undefined ? (row.detail ?? '') : `${fmt(row.value)} ${row.unit ?? ''}${row.detail ? ` (${row.detail})` : ''}`,
        row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x ${row.baseline ?? ''}`,
        row.errors === undefined ? '' : String(row.errors),
        row.target ?? '',
        row.met === undefined ? '' : row.met ? 'yes' : 'NO',
      ].join(' | ').replace(/^/, '| ').replace(/$/, ' |'),
    ),
    '',
  ];
  return lines.join('\n');
}
