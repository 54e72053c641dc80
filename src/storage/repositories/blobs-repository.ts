import type { Kysely } from 'kysely';
import type { BlobStore } from '../../domain/files/blob-store.port.js';
import type { Clock } from '../../lib/clock.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';

/**
 * The default blob store: bytes in the `blobs` table of the service's own database (BLOB on
 * SQLite, BYTEA on PostgreSQL), so every replica behind a load balancer serves every file.
 */
export function createBlobsRepository(db: Kysely<DB>, clock: Clock): BlobStore {
  return {
    async put(companyId, key, bytes, scope) {
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      await executorOf(db, scope)
        .insertInto('blobs')
        .values({ company_id: companyId, key, data, size_bytes: data.byteLength, created_at: clock.now().toISOString() })
        .execute();
    },

    async get(companyId, key) {
      const row = await db.selectFrom('blobs').select('data').where('company_id', '=', companyId).where('key', '=', key).executeTakeFirst();
      return row ? Buffer.from(row.data) : null;
    },

    async delete(companyId, key, scope) {
      await executorOf(db, scope).deleteFrom('blobs').where('company_id', '=', companyId).where('key', '=', key).execute();
    },
  };
}
