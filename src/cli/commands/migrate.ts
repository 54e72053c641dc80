import { openDatabase } from '../../storage/database.js';
import { migrateToLatest } from '../../storage/migrator.js';
import type { CliCommand } from '../command.js';
import { cliConfig } from '../config-from-env.js';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  usage: 'wrs migrate',
  summary: 'apply pending database migrations and exit',
  async run() {
    const { config } = cliConfig();
    const database = openDatabase(config.databaseUrl, config.database);
    try {
      const applied = await migrateToLatest(database.db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await database.close();
    }
  },
};
