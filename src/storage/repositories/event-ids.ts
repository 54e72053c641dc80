import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** An event that a removal deleted: which row of `event_ids` (migration 0022) it had. */
export interface RemovedEventId {
  readonly id: string;
  readonly created_at: string;
}

/**
 * PostgreSQL: after a removal deleted events, the same transaction deletes their rows of
 * `event_ids`, which holds the uniqueness of (company_id, id) for the partitioned `events`.
 * Only the row of the version deleted: an ingest that replaced the event meanwhile (and so
 * kept the removal from deleting its new version) holds the row with its own created_at.
 * `unlessKept`: the events were not deleted from `events` but left it with a detached month,
 * so a row stays whose event `events` still holds (one replaced since with the same created_at).
 */
export async function forgetEventIds(trx: Kysely<DB>, companyId: string, removed: readonly RemovedEventId[], { unlessKept = false } = {}): Promise<void> {
  if (removed.length === 0) return;
  const kept = unlessKept
    ? sql` and not exists (select 1 from events where events.company_id = ${companyId}
        and events.created_at = gone.created_at collate "C" and events.id = gone.id collate "C")`
    : sql``;
  await sql`delete from event_ids using unnest(${removed.map((row) => row.id)}::text[], ${removed.map((row) => row.created_at)}::text[]) as gone(id, created_at)
    where event_ids.company_id = ${companyId} and event_ids.id = gone.id collate "C" and event_ids.created_at = gone.created_at collate "C"${kept}`.execute(
    trx,
  );
}
