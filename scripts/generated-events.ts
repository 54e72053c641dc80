import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../src/storage/schema.js';

/**
 * Fills `table` (events, or a month table shaped like it) with `count` events made by
 * generate_series, for the measuring scripts: 10 companies (`company-0` to `company-9`), the keys
 * set as ingests set them, a JSON body of about 400 bytes. `at` gives each event's created_at
 * from its number `n` (an SQL timestamp expression).
 */
export async function insertGeneratedEvents(db: Kysely<DB>, table: string, count: number, at: RawBuilder<unknown>): Promise<void> {
  await sql`insert into ${sql.table(table)} (company_id, id, created_at, updated_at, excluded, type, flow_key, step_key, user_id, connection_key,
      version_key, flow_session, seconds_active, text, body)
    select 'company-' || (n % 10), 'evt-' || lpad(n::text, 9, '0'), at, at, n % 5 = 0,
      (array['user_flow_step_completed', 'user_flow_started', 'user_flow_completed', 'user_decision', 'note'])[1 + n % 5],
      'flow-' || (n % 40), 'step-' || (n % 12), 'user-' || (n % 1000), 'connection-' || (n % 8), 'v' || (n % 3), n, n % 600,
      case when n % 4 = 0 then 'a note of event ' || n end,
      '{"id":"evt-' || lpad(n::text, 9, '0') || '","type":"user_flow_step_completed","created_at":"' || at || '","flow_key":"flow-' || (n % 40)
        || '","step_key":"step-' || (n % 12) || '","user_id":"user-' || (n % 1000) || '","connection_key":"connection-' || (n % 8)
        || '","version_key":"v' || (n % 3) || '","flow_session":' || n || ',"seconds_active":' || (n % 600)
        || ',"excluded":false,"text":null,"like_value":null,"version_object":null}'
    from (select n, to_char(${at}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
      from generate_series(1, ${count}) as n) as generated`.execute(db);
}
