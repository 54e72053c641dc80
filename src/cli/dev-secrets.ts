import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';

const SECRET_NAMES = ['WRS_JWT_SECRET', 'WRS_ADMIN_TOKEN', 'WRS_ENCRYPTION_KEY'] as const;

/**
 * Outside production, secrets left unset are generated once and kept in `data/dev-secrets.json`
 * (mode 0600), so that a printed demo token still works after a restart and in a second shell
 * (`wrs token`). Returns the environment to load the config from and the names it filled in.
 */
export function withDevelopmentSecrets(
  env: NodeJS.ProcessEnv,
  file = 'data/dev-secrets.json',
): { env: NodeJS.ProcessEnv; filled: string[] } {
  if (env.NODE_ENV === 'production') return { env, filled: [] };
  const missing = SECRET_NAMES.filter((name) => !env[name]);
  if (missing.length === 0) return { env, filled: [] };
  let stored: Record<string, string> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const generate: Record<(typeof SECRET_NAMES)[number], () => string> = {
    WRS_JWT_SECRET: () => randomBytes(32).toString('base64url'),
    WRS_ADMIN_TOKEN: () => `wrs_admin_${randomBytes(24).toString('base64url')}`,
    WRS_ENCRYPTION_KEY: () => randomBytes(32).toString('hex'),
  };
  let changed = false;
  for (const name of missing) {
    if (!stored[name]) {
      stored[name] = generate[name]();
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  const filled = Object.fromEntries(missing.map((name) => [name, stored[name]!]));
  return { env: { ...env, ...filled }, filled: [...missing] };
}
