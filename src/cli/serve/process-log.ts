import { hostname } from 'node:os';
import type { LogFormat } from '../../config/log-format.js';
import { prettyStdout } from '../../lib/pretty-log.js';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

export interface ProcessLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * Log lines in pino's shape, for the cluster primary, which runs no Fastify instance; the
 * workers log through Fastify's pino in the same format, so one log stream has one format.
 */
export function createProcessLog(level: string, name: string, format: LogFormat): ProcessLog {
  const threshold = level in LEVELS ? LEVELS[level as keyof typeof LEVELS] : Number.POSITIVE_INFINITY;
  const host = hostname();
  const out = format === 'pretty' ? prettyStdout() : { write: (line: string) => void process.stdout.write(line) };
  const write = (value: number) => (fields: Record<string, unknown>, message: string) => {
    if (value < threshold) return;
    const line = { level: value, time: Date.now(), pid: process.pid, hostname: host, name, ...fields, msg: message };
    out.write(`${JSON.stringify(line)}\n`);
  };
  return { info: write(LEVELS.info), warn: write(LEVELS.warn), error: write(LEVELS.error) };
}
