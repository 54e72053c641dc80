import { parseArgs } from 'node:util';
import type { RecordType } from '../../domain/record-types/definition.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';
import { readJsonFile } from '../input-file.js';
import { COMPANY_AND_JSON, parseIdCommand, plural, printResult, reportingFailures, requireCompany, withAppContext } from '../operator.js';

const outline = (type: RecordType): string =>
  `${plural(type.fields.length, 'field')}, ${plural(type.statuses.length, 'status', 'statuses')}, ${plural(type.views.length, 'view')}`;

export const recordTypePutCommand: CliCommand = {
  name: 'record-type put',
  usage: 'wrs record-type put --company C --id TYPE FILE [--json]',
  summary: 'define or replace a custom record type from a JSON definition file',
  async run(argv) {
    const { companyId, id: typeId, json, file } = parseIdCommand(argv, 1, 'the JSON definition');
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const definition = await readJsonFile(file!, { limitBytes: config.bodyLimitBytes, limitName: 'WRS_BODY_LIMIT_BYTES' });
      const { type, created } = await withAppContext(config, (ctx) => ctx.recordTypes.put(companyId, typeId, definition));
      printResult(
        json,
        type,
        `record type "${type.id}" ${created ? 'created' : 'replaced'} for company "${companyId}" (version ${type.version}): ${outline(type)}`,
      );
    });
  },
};

export const recordTypeGetCommand: CliCommand = {
  name: 'record-type get',
  usage: 'wrs record-type get --company C --id TYPE [--json]',
  summary: 'show a custom record type (--json: its definition, as the operator API answers)',
  async run(argv) {
    const { companyId, id: typeId, json } = parseIdCommand(argv, 0, 'the JSON definition');
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const type = await withAppContext(config, (ctx) => ctx.recordTypes.get(companyId, typeId));
      const views = type.views.map((view) => `${view.id} [${view.statuses.join(', ') || 'every status'}]`);
      printResult(
        json,
        type,
        [
          `record type "${type.id}" (${type.name}), version ${type.version}, updated ${type.updated_at}`,
          `  fields:   ${type.fields.map((f) => `${f.field_name} (${f.uid}: ${f.type}${f.required ? ', required' : ''})`).join('; ') || 'none'}`,
          `  statuses: ${type.statuses.join(', ')}`,
          `  views:    ${views.join('; ') || 'none'}`,
        ].join('\n'),
      );
    });
  },
};

export const recordTypeDeleteCommand: CliCommand = {
  name: 'record-type delete',
  usage: 'wrs record-type delete --company C --id TYPE',
  summary: 'delete a custom record type (its records stay)',
  async run(argv) {
    const { companyId, id: typeId, json } = parseIdCommand(argv, 0, 'the JSON definition');
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      await withAppContext(config, (ctx) => ctx.recordTypes.remove(companyId, typeId));
      // The route answers 204 without a body: --json prints nothing.
      if (!json) console.log(`record type "${typeId}" deleted from company "${companyId}"; its records stay`);
    });
  },
};

export const recordTypeListCommand: CliCommand = {
  name: 'record-type list',
  usage: 'wrs record-type list --company C [--json]',
  summary: "list a company's custom record types",
  async run(argv) {
    const { values } = parseArgs({ args: argv, options: COMPANY_AND_JSON });
    const companyId = requireCompany(values.company);
    const { config } = cliConfig('existing');
    return reportingFailures(async () => {
      const results = await withAppContext(config, (ctx) => ctx.recordTypes.list(companyId));
      const human = results.length
        ? results.map((type) => `${type.id}\t${type.name}\tversion ${type.version}\t${outline(type)}`).join('\n')
        : `company "${companyId}" has no record types`;
      printResult(values.json, { count: results.length, results }, human);
    });
  },
};
