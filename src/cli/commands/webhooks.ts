import { parseArgs } from 'node:util';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { COMPANY_AND_JSON, plural, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

export const webhooksListCommand: CliCommand = {
  name: 'webhooks list',
  usage: 'wrs webhooks list --company C [--json]',
  summary: "list a company's webhooks (never their secrets)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const results = await withAppContext(config, (ctx) => ctx.webhooks.list(companyId));
      const human = results.length
        ? results.map((hook) => `${hook.id}\t${hook.enabled ? 'enabled' : 'disabled'}\t${hook.url}\t${hook.events.join(',')}`).join('\n')
        : `company "${companyId}" has no webhooks`;
      printResult(values.json, { count: results.length, results }, human);
    });
  },
};

export const webhooksFailedCommand: CliCommand = {
  name: 'webhooks failed',
  usage: 'wrs webhooks failed --company C [--json]',
  summary: "list a company's failed webhook deliveries, newest first (at most 100)",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const results = await withAppContext(config, (ctx) => ctx.webhooks.companyDeliveries(companyId, 'failed'));
      const human = results.length
        ? [
            `company "${companyId}": ${plural(results.length, 'failed delivery', 'failed deliveries')}`,
            ...results.map(
              (delivery) =>
                `${delivery.id}\t${delivery.webhook_id}\t${delivery.event_type}\t${delivery.created_at}\t` +
                `${plural(delivery.attempts, 'attempt')}\t${delivery.last_error ?? ''}`,
            ),
          ].join('\n')
        : `company "${companyId}" has no failed webhook deliveries`;
      printResult(values.json, { count: results.length, results }, human);
    });
  },
};
