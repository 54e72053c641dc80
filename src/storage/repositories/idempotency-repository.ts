import type { Kysely } from 'kysely';
import type { IdempotencyRepository, IdempotencyTarget } from '../../domain/idempotency/idempotency-repository.port.js';
import type { DB } from '../schema.js';

export function createIdempotencyRepository(db: Kysely<DB>): IdempotencyRepository {
  const at = ({ companyId, scope, key }: IdempotencyTarget) =>
    db.updateTable('idempotency_keys').where('company_id', '=', companyId).where('scope', '=', scope).where('key', '=', key);

  const freshClaim = (token: string, requestHash: string | null, expiresAt: string) => ({
    claim_token: token,
    request_hash: requestHash,
    response_status: null,
    response_headers: null,
    response_body: null,
    expires_at: expiresAt,
  });

  return {
    async claim(target, { token, requestHash, expiresAt }) {
      const result = await db
        .insertInto('idempotency_keys')
        .values({ company_id: target.companyId, scope: target.scope, key: target.key, ...freshClaim(token, requestHash, expiresAt) })
        .onConflict((conflict) => conflict.columns(['company_id', 'scope', 'key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async takeOver(target, { token, requestHash, expiresAt }, now) {
      const result = await at(target)
        .set(freshClaim(token, requestHash, expiresAt))
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async find({ companyId, scope, key }) {
      const row = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'response_status', 'response_headers', 'response_body', 'expires_at'])
        .where('company_id', '=', companyId)
        .where('scope', '=', scope)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        requestHash: row.request_hash,
        answer:
          row.response_status === null
            ? null
            : {
                status: row.response_status,
                headers: JSON.parse(row.response_headers ?? '{}') as Record<string, string>,
                body: row.response_body ?? '',
              },
        expiresAt: row.expires_at,
      };
    },

    async renew(target, token, expiresAt) {
      await at(target).set({ expires_at: expiresAt }).where('claim_token', '=', token).where('response_status', 'is', null).execute();
    },

    async complete(target, token, requestHash, answer, expiresAt) {
      await at(target)
        .set({
          request_hash: requestHash,
          response_status: answer.status,
          response_headers: JSON.stringify(answer.headers),
          response_body: answer.body,
          expires_at: expiresAt,
        })
        .where('claim_token', '=', token)
        .execute();
    },

    async release({ companyId, scope, key }, token) {
      await db
        .deleteFrom('idempotency_keys')
        .where('company_id', '=', companyId)
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('claim_token', '=', token)
        .where('response_status', 'is', null)
        .execute();
    },

    async deleteExpired(now) {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
