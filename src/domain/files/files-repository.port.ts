import type { TransactionScope } from '../unit-of-work.js';
import type { StoredFile } from './stored-file.js';

/** A stored file's metadata row; its bytes live in the blob store under `blob_key`. */
export interface FileRow extends StoredFile {
  company_id: string;
  blob_key: string;
}

export type NewFile = Omit<FileRow, 'company_id'>;

/** Metadata of stored files; the bytes are in the blob store. */
export interface FilesRepository {
  /** `scope` joins a transaction the caller opened. */
  insert(companyId: string, file: NewFile, scope?: TransactionScope): Promise<FileRow>;
  findForRecord(companyId: string, recordId: string, fileId: string): Promise<FileRow | undefined>;
  /** A record's files, newest first. */
  listForRecord(companyId: string, recordId: string): Promise<FileRow[]>;
  /** Deletes a record's file rows in the scope's transaction; answers them (their blobs are the caller's to delete). */
  deleteForRecord(companyId: string, recordId: string, scope: TransactionScope): Promise<FileRow[]>;
}
