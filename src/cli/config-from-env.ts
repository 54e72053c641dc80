import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { developmentSecrets } from './dev-secrets.js';

/**
 * What a command does with the data: `serve`, `migrate` and `seed demo` may create the
 * database; the operator commands work on a database that must already be there; `token` reads
 * no database but signs with the secrets of a service that exists, so it never makes new ones.
 */
export type DatabaseUse = 'may-create' | 'existing' | 'secrets-only';

export interface CliConfig {
  readonly config: Config;
  /** The development secrets file the secrets were read from (or written to), if any. */
  readonly secretsFile: string | undefined;
}

/** The CLI's config: the environment, plus the development secrets kept beside the database. */
export function cliConfig(use: DatabaseUse): CliConfig {
  const config = loadConfig(process.env);
  const { sqliteFile } = config.data;
  const databaseExists = sqliteFile !== undefined && existsSync(sqliteFile);
  if (use === 'existing' && sqliteFile !== undefined && !databaseExists) {
    throw new ConfigError([
      `no database at ${sqliteFile}, and this command works on existing data. ` +
        `Set WRS_DATA_DIR to the folder holding ${basename(sqliteFile)} (or WRS_DATABASE_URL to the database), ` +
        'or create it first with wrs serve, wrs migrate or wrs seed demo',
    ]);
  }
  // In production a mistyped `sqlite:` path would otherwise start an empty database in a new folder.
  if (
    use === 'may-create' &&
    config.env === 'production' &&
    sqliteFile !== undefined &&
    !databaseExists &&
    process.env.WRS_DATABASE_URL?.startsWith('sqlite:')
  ) {
    const folder = dirname(sqliteFile);
    if (!existsSync(folder)) {
      throw new ConfigError([`WRS_DATABASE_URL: the folder ${folder} does not exist, and in production it is not created: create it, or correct the path`]);
    }
  }
  if (config.env === 'production' || config.generatedSecrets.length === 0) return { config, secretsFile: undefined };
  if (use === 'secrets-only' && !databaseExists && !existsSync(config.data.secretsFile)) {
    const database = sqliteFile === undefined ? '' : `, and no database at ${sqliteFile}`;
    throw new ConfigError([
      `no development secrets at ${config.data.secretsFile}${database}: what new secrets sign, no service accepts. ` +
        `Set WRS_DATA_DIR to the folder of the service's database and secrets (or WRS_DATABASE_URL to its database), ` +
        `or ${config.generatedSecrets.join(', ')} as the service has them`,
    ]);
  }
  const secrets = developmentSecrets(config.data, config.generatedSecrets);
  return { config: loadConfig({ ...process.env, ...secrets }), secretsFile: config.data.secretsFile };
}
