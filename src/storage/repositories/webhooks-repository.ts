import { sql, type Kysely, type Transaction } from 'kysely';
import type { StoredWebhook } from '../../domain/webhooks/stored-webhook.js';
import type { WebhooksRepository } from '../../domain/webhooks/webhooks-repository.port.js';
import type { DB } from '../schema.js';
import type { WebhooksTable } from '../tables/webhooks.js';
import { dialectOf } from '../dialect.js';
import { executorOf } from '../unit-of-work.js';
import { precompiledStatement } from '../precompiled-query.js';

const COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'secret', 'created_at', 'updated_at'] as const;

export function createWebhooksRepository(db: Kysely<DB>): WebhooksRepository {
  const postgres = dialectOf(db) === 'postgres';
  // Read by every change that may announce itself (webhooks/outbox.ts), inside its transaction.
  const subscribersOf = precompiledStatement(db, 3, (db, companyId, eventType, anyType) =>
    db
      .selectFrom('webhook_subscriptions')
      .select('webhook_id')
      .distinct()
      .where('company_id', '=', companyId!)
      .where('event_type', 'in', [eventType!, anyType!]),
  );

  async function writeSubscriptions(trx: Transaction<DB>, companyId: string, webhook: Pick<StoredWebhook, 'id' | 'events' | 'enabled'>) {
    await trx.deleteFrom('webhook_subscriptions').where('company_id', '=', companyId).where('webhook_id', '=', webhook.id).execute();
    if (!webhook.enabled) return;
    const events = JSON.parse(webhook.events) as string[];
    await trx
      .insertInto('webhook_subscriptions')
      .values(events.map((eventType) => ({ company_id: companyId, event_type: eventType, webhook_id: webhook.id })))
      .execute();
  }

  return {
    async insert(companyId, webhook, limit) {
      return db.transaction().execute(async (trx) => {
        // The count and the insert are one step per company: SQLite's transactions already take the
        // write lock at BEGIN; on PostgreSQL a lock on the company's key makes its creates take turns.
        if (postgres) await sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks:${companyId}`}, 0))`.execute(trx);
        const { count } = await trx
          .selectFrom('webhooks')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= limit) return false;
        await trx
          .insertInto('webhooks')
          .values({ ...webhook, company_id: companyId, enabled: webhook.enabled ? 1 : 0 })
          .execute();
        await writeSubscriptions(trx, companyId, webhook);
        return true;
      });
    },

    async list(companyId) {
      const rows = await db.selectFrom('webhooks').select(COLUMNS).where('company_id', '=', companyId).orderBy('id').execute();
      return rows.map(toStored);
    },

    async find(companyId, id) {
      const row = await db.selectFrom('webhooks').select(COLUMNS).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row && toStored(row);
    },

    async update(companyId, id, change) {
      return db.transaction().execute(async (trx) => {
        const { enabled, ...rest } = change;
        const updated = await trx
          .updateTable('webhooks')
          .set({ ...rest, ...(enabled === undefined ? {} : { enabled: enabled ? 1 : 0 }) })
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirst();
        if (!updated) return undefined;
        const stored = toStored(updated);
        await writeSubscriptions(trx, companyId, stored);
        return stored;
      });
    },

    async rotateSecret(companyId, id, secret, previousExpiresAt, updatedAt) {
      // Both databases read the right-hand sides from the row as it was: the old secret becomes the previous one.
      const row = await db
        .updateTable('webhooks')
        .set((eb) => ({
          previous_secret: previousExpiresAt === null ? null : eb.ref('secret'),
          previous_secret_expires_at: previousExpiresAt,
          secret,
          updated_at: updatedAt,
        }))
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row && toStored(row);
    },

    async remove(companyId, id) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhook_subscriptions').where('company_id', '=', companyId).where('webhook_id', '=', id).execute();
        await trx.deleteFrom('webhook_deliveries').where('company_id', '=', companyId).where('webhook_id', '=', id).execute();
        const deleted = await trx.deleteFrom('webhooks').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
        return deleted.numDeletedRows > 0n;
      });
    },

    async subscribers(companyId, eventType, scope) {
      const { rows } = await subscribersOf(executorOf(db, scope), [companyId, eventType, '*']);
      return rows.map((row) => row.webhook_id);
    },
  };
}

function toStored(row: Pick<WebhooksTable, (typeof COLUMNS)[number]>): StoredWebhook {
  return { ...row, enabled: Number(row.enabled) === 1 };
}
