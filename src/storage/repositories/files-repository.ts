import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../schema.js';
import type { RecordFilesTable } from '../tables/pdf.js';

export type FileRow = Selectable<RecordFilesTable>;
export type NewFile = Omit<FileRow, 'company_id'>;

/** Metadata of stored files; the bytes are in the blob store. */
export interface FilesRepository {
  /** `within` joins a transaction the caller opened. */
  insert(companyId: string, file: NewFile, within?: Kysely<DB>): Promise<FileRow>;
  findForRecord(companyId: string, recordId: string, fileId: string): Promise<FileRow | undefined>;
}

export function createFilesRepository(db: Kysely<DB>): FilesRepository {
  return {
    async insert(companyId, file, within = db) {
      const row: FileRow = { company_id: companyId, ...file };
      await within.insertInto('record_files').values(row).execute();
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
  };
}
