import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { developmentSecrets } from './dev-secrets.js';

/**
 * What a command does with the database: `serve`, `migrate` and `seed demo` may create it;
 * every other command works on data that must already be there.
 */
export type DatabaseUse = 'may-create' | 'existing';

export interface CliConfig {
  readonly config: Config;
  /** The development secrets file the secrets were read from (or written to), if any. */
  readonly secretsFile: string | undefined;
}

/** The CLI's config: the environment, plus the development secrets kept beside the database. */
export function cliConfig(use: DatabaseUse): CliConfig {
  const config = loadConfig(process.env);
  const { sqliteFile } = config.data;
  if (use === 'existing' && sqliteFile !== undefined && !existsSync(sqliteFile)) {
    throw new ConfigError([
      `no database at ${sqliteFile}, and this command works on existing data. ` +
        `Set WRS_DATA_DIR to the folder holding ${basename(sqliteFile)} (or WRS_DATABASE_URL to the database), ` +
        'or create it first with wrs serve, wrs migrate or wrs seed demo',
    ]);
  }
  if (config.env === 'production' || config.generatedSecrets.length === 0) return { config, secretsFile: undefined };
  const secrets = developmentSecrets(config.data, config.generatedSecrets);
  return { config: loadConfig({ ...process.env, ...secrets }), secretsFile: config.data.secretsFile };
}
