import type { Kysely } from 'kysely';
import type { FileRow, FilesRepository } from '../../domain/files/files-repository.port.js';
import type { DB } from '../schema.js';
import { executorOf } from '../unit-of-work.js';

export function createFilesRepository(db: Kysely<DB>): FilesRepository {
  return {
    async insert(companyId, file, scope) {
      const row: FileRow = { company_id: companyId, ...file };
      await executorOf(db, scope).insertInto('record_files').values(row).execute();
      return row;
    },

    findForRecord(companyId, recordId, fileId) {
      return db
        .selectFrom('record_files')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('record_id', '=', recordId)
        .where('id', '=', fileId)
        .executeTakeFirst();
    },

    listForRecord(companyId, recordId) {
      return db
        .selectFrom('record_files')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('record_id', '=', recordId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    },

    async deleteForRecord(companyId, recordId, scope) {
      const trx = executorOf(db, scope);
      const rows = await trx
        .selectFrom('record_files')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('record_id', '=', recordId)
        .orderBy('id')
        .execute();
      if (rows.length > 0) await trx.deleteFrom('record_files').where('company_id', '=', companyId).where('record_id', '=', recordId).execute();
      return rows;
    },
  };
}
