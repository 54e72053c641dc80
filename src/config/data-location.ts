import { existsSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';

/** The wrs installation itself (the package root): two folders up from this file, in `src/` as in `dist/`. */
export const INSTALL_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The data folder when WRS_DATA_DIR is not set, never inside `node_modules`: for a checkout of
 * wrs, its own `data/`; for wrs installed into a project (`npm install wrs-x.y.z.tgz`), that
 * project's `data/`, the folder holding the outermost `node_modules` when it has a
 * `package.json`. Either way every `wrs` command finds the same data whichever folder it runs
 * from. Anywhere else (a global install), `data` relative to the current folder.
 */
export function defaultDataDir(installRoot: string, isFile: (path: string) => boolean = existsSync): string {
  const marker = `${sep}node_modules${sep}`;
  const at = installRoot.indexOf(marker);
  if (at === -1) return join(installRoot, 'data');
  const project = installRoot.slice(0, at) || sep;
  return isFile(join(project, 'package.json')) ? join(project, 'data') : 'data';
}

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
  const dir = resolve(cwd, env.WRS_DATA_DIR ?? defaultDataDir(INSTALL_ROOT));
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
