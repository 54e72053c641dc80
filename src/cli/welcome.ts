import type { AppContext } from '../app-context.js';

export const DEMO_COMPANY_ID = 'demo-company';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/** What a newcomer sees after `npm start`: a working token and requests to paste. */
export async function printWelcome(ctx: AppContext, address: string, devSecrets: string[]): Promise<void> {
  const base = (ctx.config.publicUrl ?? address).replace('0.0.0.0', '127.0.0.1');
  const { token } = await ctx.tokenSigner.sign({ company_id: DEMO_COMPANY_ID, sub: 'demo-user' }, 30 * 86_400);
  const lines = [
    '',
    `wrs is serving ${base} (database ${ctx.config.databaseUrl})`,
    LOOPBACK_HOSTS.has(ctx.config.host) ? 'only this machine can reach it; HOST=0.0.0.0 serves the network (and this demo token with it)' : '',
    devSecrets.length ? `development secrets (${devSecrets.join(', ')}) are kept in data/dev-secrets.json` : '',
    '',
    `Demo token for company "${DEMO_COMPANY_ID}" (valid 30 days):`,
    '',
    `  export TOKEN=${token}`,
    '',
    'Try:',
    `  curl -s ${base}/v1/events -H "Authorization: Bearer $TOKEN"`,
    `  curl -s "${base}/v1/events?type=user_flow_session_started&limit=5&order_by=-created_at" -H "Authorization: Bearer $TOKEN"`,
    `  curl -s "${base}/v1/events?flow_key__contains=onboard&flow_session__gte=2" -H "Authorization: Bearer $TOKEN"`,
    `  curl -s "${base}/v1/records?view_id=pipeline&limit=5" -H "Authorization: Bearer $TOKEN"`,
    `  curl -s -X PATCH ${base}/v1/records/demo-loan-01 -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"status":"approved"}'`,
    `  curl -s "${base}/v1/checks?limit=5&sort_by=-date_created" -H "Authorization: Bearer $TOKEN"`,
    `  curl -s ${base}/v1/openapi.json`,
    '',
  ];
  console.log(lines.filter((line, i) => line !== '' || lines[i - 1] !== '').join('\n'));
}
