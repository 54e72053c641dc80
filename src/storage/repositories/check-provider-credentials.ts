import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface StoredCredential {
  readonly encryptedKey: string;
  readonly keyLast4: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A company's encrypted provider keys; this layer never sees a plaintext key. */
export interface CheckProviderCredentialsRepository {
  find(companyId: string, provider: string): Promise<StoredCredential | undefined>;
  /** Creates or replaces the company's key for the provider. */
  put(companyId: string, provider: string, credential: { encryptedKey: string; keyLast4: string; at: string }): Promise<StoredCredential>;
  /** True when a key was removed. */
  remove(companyId: string, provider: string): Promise<boolean>;
}

export function createCheckProviderCredentialsRepository(db: Kysely<DB>): CheckProviderCredentialsRepository {
  const find = async (companyId: string, provider: string): Promise<StoredCredential | undefined> => {
    const row = await db
      .selectFrom('check_provider_credentials')
      .select(['encrypted_key', 'key_last4', 'created_at', 'updated_at'])
      .where('company_id', '=', companyId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row
      ? { encryptedKey: row.encrypted_key, keyLast4: row.key_last4, createdAt: row.created_at, updatedAt: row.updated_at }
      : undefined;
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
        .onConflict((oc) =>
          oc.columns(['company_id', 'provider']).doUpdateSet({ encrypted_key: encryptedKey, key_last4: keyLast4, updated_at: at }),
        )
        .execute();
      const stored = await find(companyId, provider);
      if (!stored) throw new Error('provider credential vanished after it was written');
      return stored;
    },
    async remove(companyId, provider) {
      const result = await db
        .deleteFrom('check_provider_credentials')
        .where('company_id', '=', companyId)
        .where('provider', '=', provider)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
