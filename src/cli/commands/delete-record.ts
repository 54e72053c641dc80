import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { parseIdCommand, printResult, reportingFailures, withAppContext } from '../operator.js';

export const deleteRecordCommand: CliCommand = {
  name: 'delete-record',
  usage: 'wrs delete-record --company C --id RECORD [--json]',
  summary: "delete a record as DELETE /v1/records/{record} does: its tokens revoked, its files removed, other records' links to it cut",
  async run(argv) {
    const { companyId, id, json } = parseIdCommand(argv, 0, '');
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const deleted = await withAppContext(config, (ctx) => ctx.recordDeletion.delete(companyId, id));
      printResult(json, deleted, `record "${deleted.id}" of company "${companyId}" deleted at ${deleted.deleted_at}`);
    });
  },
};
