import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const HAPROXY_BINARY = '/usr/sbin/haproxy';

/** Health checks every `CHECK_INTERVAL_MS`; two failures take a server out, two successes bring it back. */
export const CHECK_INTERVAL_MS = 300;
export const CHECK_FALL = 2;
export const CHECK_RISE = 2;

export interface HaproxyOptions {
  /** The port clients use. */
  readonly port: number;
  /** The port of the statistics page (CSV at /stats;csv). */
  readonly statsPort: number;
  /** The replicas' ports, named r0, r1, ... */
  readonly backendPorts: readonly number[];
  /** Each replica's management port (WRS_MANAGEMENT_PORT), where its health is checked. */
  readonly checkPorts: readonly number[];
}

/**
 * The configuration the deployment guide shows (docs/deployment.md): round robin over the
 * replicas, `/readyz` on each replica's management port as the health check, the client's
 * address set as X-Forwarded-For (never one the client sent), connection failures retried on another replica
 * (only those: a request that reached a replica is never sent twice), long timeouts for the
 * live event stream, and the answering replica's name in `X-Wrs-Replica` so tests can see
 * where each request went.
 */
export function haproxyConfig({ port, statsPort, backendPorts, checkPorts }: HaproxyOptions): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 10m',
    '  option redispatch',
    '  retries 3',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  http-request set-header X-Forwarded-For %[src]',
    '  default_backend wrs',
    'backend wrs',
    '  balance roundrobin',
    '  option httpchk',
    `  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1:${port}`,
    '  http-check expect status 200',
    '  http-response set-header X-Wrs-Replica %s',
    `  default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALL} rise ${CHECK_RISE}`,
    ...backendPorts.map((backend, index) => `  server r${index} 127.0.0.1:${backend} check port ${checkPorts[index]}`),
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

export interface Haproxy {
  readonly url: string;
  /** Each replica's state as HAProxy's checks see it: 'UP', 'DOWN', 'UP 1/2' (going down), ... */
  states(): Promise<Map<string, string>>;
  /** Resolves once `server` is in `state` (first word), polling every 20 ms; rejects after `timeoutMs`. */
  waitForState(server: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'wrs-haproxy-'));
  const configPath = join(dir, 'haproxy.cfg');
  writeFileSync(configPath, haproxyConfig(options));
  const child: ChildProcess = spawn(HAPROXY_BINARY, ['-db', '-f', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const states = async (): Promise<Map<string, string>> => {
    const csv = await (await fetch(`http://127.0.0.1:${options.statsPort}/stats;csv`)).text();
    const [header, ...rows] = csv.trim().split('\n');
    const columns = header!.replace(/^# /, '').split(',');
    const [proxy, server, status] = ['pxname', 'svname', 'status'].map((name) => columns.indexOf(name));
    const found = new Map<string, string>();
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[proxy!] === 'wrs' && /^r\d+$/.test(cells[server!]!)) found.set(cells[server!]!, cells[status!]!);
    }
    return found;
  };

  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${stderr}`);
    try {
      await states();
      break;
    } catch (error) {
      if (attempt > 100) throw new Error(`haproxy did not start: ${String(error)} ${stderr}`);
      await sleep(50);
    }
  }

  return {
    url: `http://127.0.0.1:${options.port}`,
    states,
    async waitForState(server, state, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = (await states()).get(server);
        if (current?.split(' ')[0] === state && !current.includes('/')) return;
        if (Date.now() > deadline) throw new Error(`haproxy: ${server} is ${current}, not ${state}, after ${timeoutMs} ms`);
        await sleep(20);
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
