import { notFound, preconditionFailed } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { DataVersions } from '../data-versions.port.js';
import type { BlobStore } from '../files/blob-store.port.js';
import type { FilesRepository } from '../files/files-repository.port.js';
import type { RecordTokensRepository } from '../record-tokens/record-tokens-repository.port.js';
import type { RecordTypesService } from '../record-types/record-types-service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { toRecordResource } from './record.js';
import { withoutReferencesTo } from './record-references.js';
import { recordMatches, type RecordMatch } from './record-tag.js';
import type { RecordsRepository } from './records-repository.port.js';

/** The `data` of a record.deleted webhook. */
export interface DeletedRecord {
  readonly id: string;
  readonly record_type: string;
  /** The record's uid (the typeId of a custom record); null when it had none. */
  readonly uid: unknown;
  readonly deleted_at: string;
}

export interface RecordDeletion {
  /**
   * Deletes a record with everything that hangs on it, in one transaction: its record tokens
   * are revoked, its files and their bytes deleted, and other records' references to it
   * removed (each such record is announced as record.updated). With `ifMatch`, a record whose
   * current tag does not match is left as it is: a 412. A 404 when there is no such record.
   */
  delete(companyId: string, recordId: string, ifMatch?: RecordMatch): Promise<DeletedRecord>;
}

export interface RecordDeletionDeps {
  records: RecordsRepository;
  recordTypes: RecordTypesService;
  recordTokens: Pick<RecordTokensRepository, 'revokeAllOfRecord'>;
  files: Pick<FilesRepository, 'deleteForRecord'>;
  blobs: Pick<BlobStore, 'delete'>;
  unitOfWork: UnitOfWork;
  dataVersions: DataVersions;
  clock: Clock;
  outbox: WebhookOutbox;
}

export function createRecordDeletion(deps: RecordDeletionDeps): RecordDeletion {
  const { records, recordTypes, recordTokens, files, blobs, unitOfWork, dataVersions, clock, outbox } = deps;
  return {
    async delete(companyId, recordId, ifMatch) {
      const deleted = await unitOfWork.run(async (scope) => {
        const deletedAt = clock.now().toISOString();
        // First: it locks the records that name this one together with it, in one order.
        const mentioning = await records.mentioning(companyId, recordId, scope);
        const record = await records.remove(
          companyId,
          recordId,
          (current, storedType) => {
            if (!ifMatch) return;
            const type = storedType && recordTypes.compile(companyId, storedType);
            if (!recordMatches(toRecordResource(current, type), ifMatch)) {
              throw preconditionFailed(`record '${recordId}' has changed: its ETag matches no tag of If-Match; nothing was deleted`);
            }
          },
          scope,
        );
        if (!record) return undefined;
        await recordTokens.revokeAllOfRecord(companyId, recordId, deletedAt, scope);
        for (const file of await files.deleteForRecord(companyId, recordId, scope)) await blobs.delete(companyId, file.blob_key, scope);

        const changed = mentioning.flatMap((other) => {
          const references = withoutReferencesTo(other, recordId);
          return references ? [{ ...other, ...references, updatedAt: deletedAt }] : [];
        });
        if (changed.length > 0) {
          const typeIds = [...new Set(changed.map((other) => other.typeId).filter((id): id is string => id !== null))];
          const types = await recordTypes.compiledMany(companyId, typeIds, scope);
          for (const other of changed) {
            await records.updateReferences(companyId, other.id, other, scope);
            const type = other.typeId === null ? undefined : types.get(other.typeId);
            await outbox.enqueue(scope, companyId, 'record.updated', toRecordResource(other, type));
          }
        }

        const gone: DeletedRecord = {
          id: record.id,
          record_type: record.recordType,
          uid: record.uid === undefined ? null : record.uid,
          deleted_at: deletedAt,
        };
        await outbox.enqueue(scope, companyId, 'record.deleted', gone);
        await dataVersions.bump(scope, companyId);
        return gone;
      });
      if (!deleted) throw notFound(`record '${recordId}' not found`);
      return deleted;
    },
  };
}
