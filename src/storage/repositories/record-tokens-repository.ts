import type { Kysely } from 'kysely';
import type { RecordTokenDocument } from '../../domain/record-tokens/record-token.js';
import type { RecordTokensRepository } from '../../domain/record-tokens/record-tokens-repository.port.js';
import type { DB } from '../schema.js';
import type { RecordTokensTable } from '../tables/record-tokens.js';
import { executorOf } from '../unit-of-work.js';

const COLUMNS = ['key', 'record_id', 'user_id', 'created_at', 'expires_at', 'revoked_at', 'visible_fields', 'status_editable', 'label'] as const;

type Row = Pick<RecordTokensTable, (typeof COLUMNS)[number]>;

/** The stored row as the domain's token: the narrowing's JSON text and 0/1 flag read back. */
function toDomain(row: Row): RecordTokenDocument {
  return {
    ...row,
    visible_fields: row.visible_fields === null ? null : (JSON.parse(row.visible_fields) as string[]),
    status_editable: row.status_editable === null ? null : Number(row.status_editable) === 1,
  };
}

/** The domain's token as a row: its narrowing as JSON text and a 0/1 flag, which both databases store alike. */
function toPersistence<T extends Partial<RecordTokenDocument>>(
  document: T & Pick<RecordTokenDocument, 'visible_fields' | 'status_editable'>,
): Omit<T, 'visible_fields' | 'status_editable'> & { visible_fields: string | null; status_editable: number | null } {
  return {
    ...document,
    visible_fields: document.visible_fields === null ? null : JSON.stringify(document.visible_fields),
    status_editable: document.status_editable === null ? null : document.status_editable ? 1 : 0,
  };
}

export function createRecordTokensRepository(db: Kysely<DB>): RecordTokensRepository {
  return {
    async insert(companyId, document, scope) {
      await executorOf(db, scope)
        .insertInto('record_tokens')
        .values({ ...toPersistence(document), company_id: companyId, revoked_at: null })
        .execute();
    },

    async find(companyId, key) {
      const row = await db.selectFrom('record_tokens').select(COLUMNS).where('company_id', '=', companyId).where('key', '=', key).executeTakeFirst();
      return row && toDomain(row);
    },

    async listLive(companyId, recordId, now) {
      const rows = await db
        .selectFrom('record_tokens')
        .select(COLUMNS)
        .where('company_id', '=', companyId)
        .where('record_id', '=', recordId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .orderBy('key')
        .execute();
      return rows.map(toDomain);
    },

    async revokeAllOfRecord(companyId, recordId, at, scope) {
      const result = await executorOf(db, scope)
        .updateTable('record_tokens')
        .set({ revoked_at: at })
        .where('company_id', '=', companyId)
        .where('record_id', '=', recordId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async revoke(companyId, recordId, key, at) {
      const found = await db
        .selectFrom('record_tokens')
        .select('revoked_at')
        .where('company_id', '=', companyId)
        .where('record_id', '=', recordId)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!found) return false;
      if (found.revoked_at === null) {
        await db
          .updateTable('record_tokens')
          .set({ revoked_at: at })
          .where('company_id', '=', companyId)
          .where('key', '=', key)
          .where('revoked_at', 'is', null)
          .execute();
      }
      return true;
    },
  };
}
