import { parseArgs } from 'node:util';
import { MAX_RETENTION_DAYS, type EventRetention } from '../../domain/retention/event-retention.js';
import { UsageError, type CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { COMPANY_AND_JSON, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

const describe = (retention: EventRetention): string => {
  const company = `company "${retention.company_id}"`;
  const period = retention.retention_days === null ? 'keeps its events forever' : `keeps ${retention.retention_days} days of events`;
  if (retention.source === 'company') return `${company} ${period} (its own setting)`;
  if (retention.source === 'deployment') return `${company} ${period} (WRS_EVENT_RETENTION_DAYS; no setting of its own)`;
  return `${company} ${period} (no setting of its own, and WRS_EVENT_RETENTION_DAYS is not set)`;
};

/** `--days N` or `--days forever`. */
function parseDays(value: string | undefined): number | null {
  if (value === undefined) throw new UsageError('--days is required: a number of days, or forever');
  if (value === 'forever') return null;
  const days = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(days >= 1 && days <= MAX_RETENTION_DAYS)) {
    throw new UsageError(`--days must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, or forever (got "${value}")`);
  }
  return days;
}

export const retentionShowCommand: CliCommand = {
  name: 'retention show',
  usage: 'wrs retention show --company C [--json]',
  summary: "show how long a company's events are kept, and where that comes from",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const retention = await withAppContext(config, (ctx) => ctx.retention.get(companyId));
      printResult(values.json, retention, describe(retention));
    });
  },
};

export const retentionSetCommand: CliCommand = {
  name: 'retention set',
  usage: 'wrs retention set --company C --days N|forever [--json]',
  summary: "set how long a company's events are kept (older ones are removed by the service's sweep)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { ...COMPANY_AND_JSON, days: { type: 'string' } } });
    const companyId = requireCompany(values.company);
    const days = parseDays(values.days);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const retention = await withAppContext(config, (ctx) => ctx.retention.set(companyId, days));
      printResult(values.json, retention, describe(retention));
    });
  },
};

export const retentionClearCommand: CliCommand = {
  name: 'retention clear',
  usage: 'wrs retention clear --company C [--json]',
  summary: "remove a company's own retention period (WRS_EVENT_RETENTION_DAYS applies again)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const retention = await withAppContext(config, (ctx) => ctx.retention.clear(companyId));
      printResult(values.json, retention, describe(retention));
    });
  },
};

export const retentionSweepCommand: CliCommand = {
  name: 'retention sweep',
  usage: 'wrs retention sweep [--json]',
  summary: "remove now every event older than its company's retention period (as the service does every WRS_RETENTION_SWEEP_INTERVAL_MS)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean', default: false } } });
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const outcome = await withAppContext(config, (ctx) => ctx.retention.sweep());
      printResult(
        values.json,
        outcome,
        outcome.swept
          ? `removed ${outcome.removed} events older than their company's retention period`
          : 'another process is sweeping this database now; nothing was done',
      );
      return outcome.swept ? 0 : 1;
    });
  },
};
