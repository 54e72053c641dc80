import { internalError, notFound } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { TransactionScope, UnitOfWork } from '../unit-of-work.js';
import type { BlobStore } from './blob-store.port.js';
import type { FileRow, FilesRepository } from './files-repository.port.js';
import type { StoredFile } from './stored-file.js';

export interface NewStoredFile {
  recordId: string;
  filename: string;
  contentType: string;
  templateId: string;
  bytes: Uint8Array;
  pages: number;
  sha256: string;
}

export interface FileService {
  /**
   * Writes the metadata and the bytes in one transaction: both are stored, or neither.
   * `alsoWrite` runs in that transaction too (the step's webhook announcement).
   */
  store(companyId: string, file: NewStoredFile, alsoWrite?: (scope: TransactionScope, stored: StoredFile) => Promise<void>): Promise<StoredFile>;
  /**
   * A record's file with its bytes, or a 404 (also for another company's file). When `skipBytes`
   * says the caller holds them already (its copy has the file's hash), `bytes` is null, unread.
   */
  download(companyId: string, recordId: string, fileId: string, skipBytes?: (file: StoredFile) => boolean): Promise<{ file: StoredFile; bytes: Buffer | null }>;
  /** A record's files, newest first; a 404 when the company has no such record. */
  listForRecord(companyId: string, recordId: string): Promise<StoredFile[]>;
}

/** What the file service is built from. */
export interface FileServiceDeps {
  unitOfWork: UnitOfWork;
  files: FilesRepository;
  blobs: BlobStore;
  clock: Clock;
  recordExists: (companyId: string, recordId: string) => Promise<boolean>;
}

export function createFileService(deps: FileServiceDeps): FileService {
  const { unitOfWork, files, blobs, clock, recordExists } = deps;
  return {
    async store(companyId, file, alsoWrite) {
      const now = clock.now();
      const id = uuidv7(now.getTime());
      const row = await unitOfWork.run(async (scope) => {
        const inserted = await files.insert(
          companyId,
          {
            id,
            record_id: file.recordId,
            filename: file.filename,
            content_type: file.contentType,
            size_bytes: file.bytes.byteLength,
            pages: file.pages,
            sha256: file.sha256,
            template_id: file.templateId,
            blob_key: `files/${id}`,
            created_at: now.toISOString(),
          },
          scope,
        );
        await blobs.put(companyId, inserted.blob_key, file.bytes, scope);
        await alsoWrite?.(scope, toStoredFile(inserted));
        return inserted;
      });
      return toStoredFile(row);
    },

    async download(companyId, recordId, fileId, skipBytes) {
      const row = await files.findForRecord(companyId, recordId, fileId);
      if (!row) throw notFound(`no file '${fileId}' for record '${recordId}'`);
      const file = toStoredFile(row);
      if (skipBytes?.(file)) return { file, bytes: null };
      const bytes = await blobs.get(companyId, row.blob_key);
      if (!bytes) throw internalError(new Error(`blob ${row.blob_key} is missing`));
      return { file, bytes };
    },

    async listForRecord(companyId, recordId) {
      if (!(await recordExists(companyId, recordId))) throw notFound(`record '${recordId}' not found`);
      return (await files.listForRecord(companyId, recordId)).map(toStoredFile);
    },
  };
}

function toStoredFile(row: FileRow): StoredFile {
  return {
    id: row.id,
    record_id: row.record_id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    pages: row.pages,
    sha256: row.sha256,
    template_id: row.template_id,
    created_at: row.created_at,
  };
}
