import type { Kysely } from 'kysely';
import type { Clock } from '../../lib/clock.js';
import type { DB } from '../../storage/schema.js';
import type { BlobStore } from './blob-store.js';

/**
 * The default blob store: bytes in the `blobs` table of the service's own database (BLOB on
 * SQLite, BYTEA on PostgreSQL), so every replica behind a load balancer serves every file.
 */
export function createDatabaseBlobStore(db: Kysely<DB>, clock: Clock): BlobStore {
  return {
    async put(companyId, key, bytes, within = db) {
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      await within
        .insertInto('blobs')
        .values({ company_id: companyId, key, data, size_bytes: data.byteLength, created_at: clock.now().toISOString() })
        .execute();
    },

    async get(companyId, key) {
      const row = await db
        .selectFrom('blobs')
        .select('data')
        .where('company_id', '=', companyId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? Buffer.from(row.data) : null;
    },

    async delete(companyId, key, within = db) {
      await within.deleteFrom('blobs').where('company_id', '=', companyId).where('key', '=', key).execute();
    },
  };
}
