import { sql, type Kysely } from 'kysely';
import type { ClaimedDelivery, DeliveriesRepository, DeliveryOutcome } from '../../domain/webhooks/deliveries-repository.port.js';
import type { StoredDelivery } from '../../domain/webhooks/stored-webhook.js';
import type { Database } from '../database.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';

/** What a worker claims: a delivery without its last answer's body, which the attempt does not need. */
const COLUMNS = [
  'id',
  'webhook_id',
  'event_type',
  'payload',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'lease_until',
  'lease_owner',
  'created_at',
  'delivered_at',
] as const;

/** What a delivery's history shows. */
const HISTORY_COLUMNS = [...COLUMNS, 'last_response_body'] as const;

const INSERT_BATCH = 200;

export function createWebhookDeliveriesRepository(database: Database): DeliveriesRepository {
  const db: Kysely<DB> = database.db;

  return {
    async insertMany(companyId, deliveries, scope) {
      const executor = executorOf(db, scope);
      for (let i = 0; i < deliveries.length; i += INSERT_BATCH) {
        await executor
          .insertInto('webhook_deliveries')
          .values(
            deliveries.slice(i, i + INSERT_BATCH).map((delivery) => ({
              company_id: companyId,
              id: delivery.id,
              webhook_id: delivery.webhookId,
              event_type: delivery.eventType,
              payload: delivery.payload,
              status: 'pending' as const,
              attempts: 0,
              last_status_code: null,
              last_error: null,
              last_response_body: null,
              next_attempt_at: delivery.createdAt,
              lease_until: delivery.createdAt,
              lease_owner: null,
              created_at: delivery.createdAt,
              delivered_at: null,
            })),
          )
          .execute();
      }
    },

    async listForWebhook(companyId, webhookId, limit) {
      return db
        .selectFrom('webhook_deliveries')
        .select(HISTORY_COLUMNS)
        .where('company_id', '=', companyId)
        .where('webhook_id', '=', webhookId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    async listForCompany(companyId, status, limit) {
      let query = db.selectFrom('webhook_deliveries').select(HISTORY_COLUMNS).where('company_id', '=', companyId);
      if (status !== undefined) query = query.where('status', '=', status);
      return query.orderBy('id', 'desc').limit(limit).execute();
    },

    async redeliver(companyId, webhookId, deliveryId, at) {
      return db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: at, delivered_at: null })
        .where('company_id', '=', companyId)
        .where('webhook_id', '=', webhookId)
        .where('id', '=', deliveryId)
        .returning(HISTORY_COLUMNS)
        .executeTakeFirst();
    },

    async claim({ now, leaseUntil, owner, limit, skipWebhooks, skipCompanies, choose }) {
      return db.transaction().execute(async (trx) => {
        // Literal 'pending', so that SQLite can use the partial index of pending deliveries.
        let due = trx
          .selectFrom('webhook_deliveries')
          .select(['company_id', 'id', 'webhook_id'])
          .where('status', '=', sql.lit('pending'))
          .where('next_attempt_at', '<=', now)
          .where('lease_until', '<=', now);
        // Skipped here rather than passed over after the read: their backlog would fill the limit and hide later companies.
        if (skipCompanies.length > 0) due = due.where('company_id', 'not in', skipCompanies);
        if (skipWebhooks.length > 0) due = due.where('webhook_id', 'not in', skipWebhooks);
        due = due.orderBy('next_attempt_at').limit(limit);
        // Rows another replica is claiming right now are passed over, not waited for.
        if (database.dialect === 'postgres') due = due.forUpdate().skipLocked();
        const candidates = await due.execute();
        const keys = choose(candidates);
        const moreDue = candidates.length === limit || keys.length < candidates.length || skipWebhooks.length + skipCompanies.length > 0;
        if (keys.length === 0) return { deliveries: [], moreDue };
        const companies = [...new Set(keys.map((key) => key.company_id))];
        const ids = keys.map((key) => key.id);
        await trx
          .updateTable('webhook_deliveries')
          .set({ lease_until: leaseUntil, lease_owner: owner })
          .where('company_id', 'in', companies)
          .where('id', 'in', ids)
          .execute();
        const rows = await trx
          .selectFrom('webhook_deliveries as d')
          .leftJoin('webhooks as w', (join) => join.onRef('w.company_id', '=', 'd.company_id').onRef('w.id', '=', 'd.webhook_id'))
          .select(COLUMNS.map((column) => `d.${column}` as const))
          .select(['d.company_id', 'w.url', 'w.secret', 'w.enabled', 'w.previous_secret', 'w.previous_secret_expires_at'])
          .where('d.company_id', 'in', companies)
          .where('d.id', 'in', ids)
          .orderBy('d.next_attempt_at')
          .execute();
        const deliveries = rows.map(
          ({ url, secret, enabled, previous_secret, previous_secret_expires_at, ...delivery }): ClaimedDelivery => ({
            ...(delivery as StoredDelivery & { company_id: string }),
            ...(url !== null && secret !== null
              ? {
                  webhook: {
                    url,
                    secret,
                    enabled: Number(enabled) === 1,
                    ...(previous_secret !== null && previous_secret_expires_at !== null
                      ? { previousSecret: { sealed: previous_secret, expiresAt: previous_secret_expires_at } }
                      : {}),
                  },
                }
              : {}),
          }),
        );
        return { deliveries, moreDue };
      });
    },

    async finish(owner, outcomes) {
      if (outcomes.length === 0) return;
      // Outcomes alike (most often: delivered at the first attempt, in the same batch) are one statement.
      const alike = new Map<string, { outcome: DeliveryOutcome; keys: Array<{ company_id: string; id: string }> }>();
      for (const { company_id, id, outcome } of outcomes) {
        const key = JSON.stringify(outcome);
        const group = alike.get(key) ?? { outcome, keys: [] };
        group.keys.push({ company_id, id });
        alike.set(key, group);
      }
      await db.transaction().execute(async (trx) => {
        for (const { outcome, keys } of alike.values()) {
          for (let i = 0; i < keys.length; i += INSERT_BATCH) {
            const slice = keys.slice(i, i + INSERT_BATCH);
            await trx
              .updateTable('webhook_deliveries')
              .set({ ...outcome, lease_owner: null })
              .where('company_id', 'in', [...new Set(slice.map((key) => key.company_id))])
              .where(
                'id',
                'in',
                slice.map((key) => key.id),
              )
              .where('lease_owner', '=', owner)
              .execute();
          }
        }
      });
    },
  };
}
