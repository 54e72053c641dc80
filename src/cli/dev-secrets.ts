import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { ConfigError } from '../config/config.js';
import type { DataLocation } from '../config/data-location.js';

const GENERATORS: Record<string, () => string> = {
  WRS_JWT_SECRET: () => randomBytes(32).toString('base64url'),
  WRS_ADMIN_TOKEN: () => `wrs_admin_${randomBytes(24).toString('base64url')}`,
  WRS_ENCRYPTION_KEY: () => randomBytes(32).toString('hex'),
};

/**
 * Outside production, secrets left unset are generated once and kept in the secrets file
 * beside the database (mode 0600), so that a printed demo token still works after a restart
 * and in a second shell (`wrs token`). Answers the values of `names` (the secrets the
 * environment lacks). New secrets are never made for a SQLite database that already exists:
 * they would not open what it holds (its users' tokens, its encrypted provider keys).
 */
export function developmentSecrets(data: DataLocation, names: readonly string[]): Record<string, string> {
  const file = data.secretsFile;
  const stored = existsSync(file) ? readSecretsFile(file) : refuseBesideExistingDatabase(data, names);
  const missing = names.filter((name) => !stored[name]);
  for (const name of missing) stored[name] = GENERATORS[name]!();
  if (missing.length > 0) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  return Object.fromEntries(names.map((name) => [name, stored[name]!]));
}

function refuseBesideExistingDatabase(data: DataLocation, names: readonly string[]): Record<string, string> {
  if (data.sqliteFile === undefined || !existsSync(data.sqliteFile)) return {};
  throw new ConfigError([
    `the database ${data.sqliteFile} exists but its development secrets file ${data.secretsFile} does not, ` +
      'and new secrets would not open what the database holds. ' +
      `Set ${names.join(', ')} to the secrets it was made with, ` +
      `or WRS_DATA_DIR to the folder that has both ${basename(data.sqliteFile)} and ${basename(data.secretsFile)}`,
  ]);
}

function readSecretsFile(file: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`the development secrets file ${file} cannot be read: ${(error as Error).message}`]);
  }
  const valid = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((value) => typeof value === 'string');
  if (!valid) throw new ConfigError([`the development secrets file ${file} is not a JSON object of strings (WRS_JWT_SECRET, ...)`]);
  return { ...(parsed as Record<string, string>) };
}
