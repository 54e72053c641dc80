import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { Erasure } from '../../domain/lifecycle/erasure.js';
import { JOB_WAIT_POLL_MS } from '../../domain/lifecycle/job-lease.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { COMPANY_AND_JSON, plural, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

const OPTIONS = { ...COMPANY_AND_JSON, 'user-id': { type: 'string' }, 'user-key': { type: 'string' } } as const;

export const eraseCommand: CliCommand = {
  name: 'erase',
  usage: 'wrs erase --company C --user-id U|--user-key U [--json]',
  summary: "erase a person's events and the record tokens they minted, in batches; re-run continues an unfinished one",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: OPTIONS });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const erasure = await withAppContext(config, async (ctx) => {
        const { erasure: job } = await ctx.erasures.request(companyId, { user_id: values['user-id'], user_key: values['user-key'] }, 'cli');
        let current = await ctx.erasures.run(companyId, job.id);
        // Another process (a serving replica) holds the job: wait for it rather than run it twice.
        while (current.state === 'running') {
          await sleep(JOB_WAIT_POLL_MS);
          current = await ctx.erasures.run(companyId, job.id);
        }
        return current;
      });
      printResult(values.json, erasure, describe(erasure));
    });
  },
};

function describe(erasure: Erasure): string {
  const { events, record_tokens: tokens } = erasure.removed;
  return (
    `erasure ${erasure.id} of company "${erasure.company_id}" done: removed ${plural(events, 'event')} and ` +
    `${plural(tokens, 'record token')} in ${plural(erasure.batches, 'batch', 'batches')} (audit entry kept with the value's keyed hash ${erasure.subject_hash})`
  );
}
