import type { CliCommand } from '../command.js';
import { openingDatabase } from '../database-start-errors.js';
import { cliConfig } from '../config-from-env.js';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  usage: 'wrs migrate',
  summary: 'apply pending database migrations and exit',
  async run() {
    const { config } = cliConfig('may-create');
    const { migrateDatabase } = await import('../../app-context.js');
    const applied = await openingDatabase(config.databaseUrl, () => migrateDatabase(config));
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  },
};
