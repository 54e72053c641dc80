import { maskedDatabaseUrl } from './database-start-errors.js';
import type { AppContext } from '../app-context.js';
import type { Config } from '../config/config.js';

export const DEMO_COMPANY_ID = 'demo-company';

const DEMO_TOKEN_SECONDS = 30 * 86_400;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);
const RULER = '─'.repeat(72);

/** Where this machine reaches the server listening on `host` and `port` (a wildcard host is reached on loopback). */
export function localBaseUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * What a newcomer sees after `npm start`: three lines to paste (the base URL, a demo user's
 * token, the operator token), requests that use them, and where the data and secrets are.
 * Framed by rulers, so that it stands out among the log lines printed before it.
 */
export async function printWelcome(ctx: AppContext, base: string, secretsFile: string | undefined): Promise<void> {
  const { config } = ctx;
  const lifetime = Math.min(DEMO_TOKEN_SECONDS, config.jwt.maxLifetimeSeconds ?? Infinity);
  const { token } = await ctx.tokenSigner.sign({ company_id: DEMO_COMPANY_ID, sub: 'demo-user' }, lifetime);
  const auth = '-H "Authorization: Bearer $TOKEN"';
  const lines = [
    '',
    RULER,
    `wrs is serving ${base}${LOOPBACK_HOSTS.has(config.host) ? ' (this machine only; HOST=0.0.0.0 serves the network, and this token with it)' : ''}`,
    '',
    `Paste into a shell (TOKEN: user "demo-user" of company "${DEMO_COMPANY_ID}", ${describeLifetime(lifetime)}; ADMIN_TOKEN: the operator API):`,
    '',
    `  export BASE=${base}`,
    `  export TOKEN=${token}`,
    `  export ADMIN_TOKEN=${config.adminToken}`,
    '',
    'Then try:',
    `  curl -s "$BASE/v1/events?type=user_flow_session_started&limit=5&order_by=-created_at" ${auth}`,
    `  curl -s "$BASE/v1/records?view_id=pipeline&limit=5" ${auth}`,
    `  curl -s -X POST $BASE/admin/v1/tokens -H "Authorization: Bearer $ADMIN_TOKEN" -H 'content-type: application/json' -d '{"company_id":"${DEMO_COMPANY_ID}","user_id":"me"}'`,
    '  open $BASE/app/    # the web console: paste TOKEN to sign in',
    '  open $BASE/docs    # the API reference, in a browser',
    '',
    `data: ${describeDatabase(config)}   secrets: ${secretsFile ?? 'from the environment'}`,
    RULER,
    '',
  ];
  console.log(lines.join('\n'));
}

/** The SQLite file, or the PostgreSQL URL without its password. */
function describeDatabase(config: Config): string {
  if (config.data.sqliteFile !== undefined) return config.data.sqliteFile;
  return maskedDatabaseUrl(config.databaseUrl);
}

function describeLifetime(seconds: number): string {
  if (seconds % 86_400 !== 0) return `${seconds} s, WRS_JWT_MAX_LIFETIME_S`;
  return seconds === 86_400 ? '1 day' : `${seconds / 86_400} days`;
}
