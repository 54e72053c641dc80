import { ConfigError } from '../config/config.js';
import { UsageError, type CliCommand } from './command.js';
import { backupCommand, restoreCommand } from './commands/backup-restore.js';
import { checksAddCommand } from './commands/checks-add.js';
import { copyDatabaseCommand } from './commands/copy-database.js';
import { eraseCommand } from './commands/erase.js';
import { importEventsCommand } from './commands/import-events.js';
import { importCompanyCommand } from './commands/import-company.js';
import { exportCompanyCommand } from './commands/export-company.js';
import { importRecordsCommand } from './commands/import-records.js';
import { migrateCommand } from './commands/migrate.js';
import { deleteRecordCommand } from './commands/delete-record.js';
import { offboardCommand } from './commands/offboard.js';
import { providerLobCommand, providerShowCommand } from './commands/provider.js';
import { recordTypeDeleteCommand, recordTypeGetCommand, recordTypeListCommand, recordTypePutCommand } from './commands/record-type.js';
import { profileSetCommand, profileShowCommand } from './commands/company-profile.js';
import { retentionClearCommand, retentionSetCommand, retentionShowCommand, retentionSweepCommand } from './commands/retention.js';
import { seedDemoCommand } from './commands/seed-demo.js';
import { serveCommand } from './commands/serve.js';
import { templateDeleteCommand, templateGetCommand, templatePutCommand } from './commands/template.js';
import { tokenCommand } from './commands/token.js';
import { webhooksFailedCommand, webhooksListCommand } from './commands/webhooks.js';

const COMMANDS: CliCommand[] = [
  serveCommand,
  migrateCommand,
  tokenCommand,
  importEventsCommand,
  seedDemoCommand,
  importRecordsCommand,
  recordTypePutCommand,
  recordTypeGetCommand,
  recordTypeDeleteCommand,
  recordTypeListCommand,
  templatePutCommand,
  templateGetCommand,
  templateDeleteCommand,
  checksAddCommand,
  providerLobCommand,
  providerShowCommand,
  retentionShowCommand,
  retentionSetCommand,
  retentionClearCommand,
  retentionSweepCommand,
  profileShowCommand,
  profileSetCommand,
  webhooksListCommand,
  webhooksFailedCommand,
  copyDatabaseCommand,
  backupCommand,
  restoreCommand,
  exportCompanyCommand,
  importCompanyCommand,
  eraseCommand,
  offboardCommand,
  deleteRecordCommand,
];

function usage(): string {
  return ['usage: wrs <command> [options]', '', ...COMMANDS.map((c) => `  ${c.usage.padEnd(58)} ${c.summary}`)].join('\n');
}

/** Runs the command named by `argv` (the words after `wrs`); answers the exit status. */
export async function runCommand(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  // Commands with a second word (`import events`, `seed demo`) are matched on both words first.
  const command = COMMANDS.find((c) => rest[0] !== undefined && c.name === `${name} ${rest[0]}`) ?? COMMANDS.find((c) => c.name === name);
  if (!command) {
    const family = COMMANDS.filter((c) => c.name.startsWith(`${name} `)).map((c) => c.name.slice(name.length + 1));
    const problem = family.length ? `${name} takes one of: ${family.join(', ')}` : `unknown command: ${name}`;
    console.error(`${problem}\n\n${usage()}`);
    return 2;
  }
  const args = command.name.includes(' ') ? rest.slice(1) : rest;
  try {
    return (await command.run(args)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`${(error as Error).message}\nusage: ${command.usage}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 78;
    }
    throw error;
  }
}
