import type { Kysely } from 'kysely';
import type { CheckProviderCredentialsRepository, StoredCredential } from '../../domain/checks/check-provider-credentials-repository.port.js';
import type { DB } from '../schema.js';

export function createCheckProviderCredentialsRepository(db: Kysely<DB>): CheckProviderCredentialsRepository {
  const find = async (companyId: string, provider: string): Promise<StoredCredential | undefined> => {
    const row = await db
      .selectFrom('check_provider_credentials')
      .select(['encrypted_key', 'key_last4', 'created_at', 'updated_at'])
      .where('company_id', '=', companyId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row ? { encryptedKey: row.encrypted_key, keyLast4: row.key_last4, createdAt: row.created_at, updatedAt: row.updated_at } : undefined;
  };

  return {
    find,
    async put(companyId, provider, { encryptedKey, keyLast4, at }) {
      await db
        .insertInto('check_provider_credentials')
        .values({
          company_id: companyId,
          provider,
          encrypted_key: encryptedKey,
          key_last4: keyLast4,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.columns(['company_id', 'provider']).doUpdateSet({ encrypted_key: encryptedKey, key_last4: keyLast4, updated_at: at }))
        .execute();
      const stored = await find(companyId, provider);
      if (!stored) throw new Error('provider credential vanished after it was written');
      return stored;
    },
    async remove(companyId, provider) {
      const result = await db.deleteFrom('check_provider_credentials').where('company_id', '=', companyId).where('provider', '=', provider).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
