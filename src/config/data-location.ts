import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';

/**
 * The wrs installation itself (the package root): two folders up from this file, in `src/` as
 * in `dist/`. Its `data/` folder is the default data folder, so that the CLI run from any
 * folder finds the data `npm start` uses.
 */
export const INSTALL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const DATABASE_FILE_NAME = 'wrs.db';
export const SECRETS_FILE_NAME = 'dev-secrets.json';

/** Where the data lives. Part of the one environment schema in `config.ts`. */
export const DataEnv = {
  WRS_DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  WRS_DATABASE_URL: Type.Optional(Type.String({ pattern: '^(sqlite:|postgres://|postgresql://)' })),
};

export interface DataLocation {
  /** WRS_DATA_DIR as an absolute path: the default database's folder, and the secrets' folder for PostgreSQL. */
  readonly dir: string;
  /** The SQLite database file, absolute; undefined for PostgreSQL and an in-memory SQLite database. */
  readonly sqliteFile: string | undefined;
  /** Where development secrets are kept: beside the database they belong to, so the two never part. */
  readonly secretsFile: string;
}

/**
 * The database URL and the data location. Relative paths (WRS_DATA_DIR, a `sqlite:` path) are
 * relative to `cwd`; the URL of a SQLite file is returned with its absolute path.
 */
export function dataSettings(
  env: { WRS_DATA_DIR?: string | undefined; WRS_DATABASE_URL?: string | undefined },
  cwd: string,
): { databaseUrl: string; data: DataLocation } {
  const dir = resolve(cwd, env.WRS_DATA_DIR ?? join(INSTALL_ROOT, 'data'));
  const url = env.WRS_DATABASE_URL ?? `sqlite:${join(dir, DATABASE_FILE_NAME)}`;
  if (!url.startsWith('sqlite:')) {
    return { databaseUrl: url, data: Object.freeze({ dir, sqliteFile: undefined, secretsFile: join(dir, SECRETS_FILE_NAME) }) };
  }
  const path = url.slice('sqlite:'.length);
  if (path === '' || path === ':memory:') {
    return { databaseUrl: url, data: Object.freeze({ dir, sqliteFile: undefined, secretsFile: join(dir, SECRETS_FILE_NAME) }) };
  }
  const sqliteFile = resolve(cwd, path);
  return {
    databaseUrl: `sqlite:${sqliteFile}`,
    data: Object.freeze({ dir, sqliteFile, secretsFile: join(dirname(sqliteFile), SECRETS_FILE_NAME) }),
  };
}
