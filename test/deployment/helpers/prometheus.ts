import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const PROMETHEUS_BINARY = '/usr/bin/prometheus';

export interface ScrapeOptions {
  /** host:port of every replica: each is scraped directly, never through the balancer. */
  readonly targets: readonly string[];
  /** The file holding the bearer (WRS_METRICS_TOKEN, or the operator token). */
  readonly tokenFile: string;
  readonly intervalSeconds: number;
}

/** The scrape configuration docs/deployment.md shows, with the test's addresses and interval. */
export function prometheusConfig({ targets, tokenFile, intervalSeconds }: ScrapeOptions): string {
  return [
    'scrape_configs:',
    '  - job_name: wrs',
    `    scrape_interval: ${intervalSeconds}s`,
    '    metrics_path: /metrics',
    '    authorization:',
    '      type: Bearer',
    `      credentials_file: ${tokenFile}`,
    '    static_configs:',
    `      - targets: [${targets.map((target) => `'${target}'`).join(', ')}]`,
    '',
  ].join('\n');
}

export interface PromSample {
  readonly metric: Record<string, string>;
  readonly value: number;
}

export interface Prometheus {
  /** An instant PromQL query through Prometheus's HTTP API. */
  query(promql: string): Promise<PromSample[]>;
  stop(): Promise<void>;
}

export async function startPrometheus(options: { port: number; targets: readonly string[]; token: string; intervalSeconds: number }): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-prometheus-'));
  const tokenFile = join(dir, 'metrics-token');
  writeFileSync(tokenFile, options.token, { mode: 0o600 });
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, prometheusConfig({ targets: options.targets, tokenFile, intervalSeconds: options.intervalSeconds }));
  const child = spawn(
    PROMETHEUS_BINARY,
    [`--config.file=${configFile}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${options.port}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${options.port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
    const ready = await fetch(`${base}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (attempt > 300) throw new Error(`prometheus did not get ready: ${stderr}`);
    await sleep(100);
  }
  return {
    async query(promql) {
      const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await response.json()) as {
        status: string;
        error?: string;
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      if (body.status !== 'success') throw new Error(`prometheus: ${promql}: ${body.error}`);
      return body.data.result.map((sample) => ({ metric: sample.metric, value: Number(sample.value[1]) }));
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
