import { invalidBody } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { ByteSource, JsonItemsFormat } from '../../lib/json-items.js';
import type { DataVersions } from '../data-versions.port.js';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import { isPlainObject } from '../record-types/definition.js';
import type { RecordTypesService } from '../record-types/record-types-service.js';
import { importStream } from '../stream-import.js';
import type { TransactionScope, UnitOfWork } from '../unit-of-work.js';
import { importedRecordName, importRefused, parseImportedRecord } from './import.js';
import { typeIdOf } from './record.js';
import type { RecordModel } from './record-model.js';
import type { RecordsRepository } from './records-repository.port.js';

export interface ImportOptions {
  readonly format: JsonItemsFormat;
  /** Called as the checked records are stored, with how many are stored so far (not yet committed). */
  readonly onProgress?: (stored: number) => void;
}

export interface RecordImportDeps {
  repository: RecordsRepository;
  recordTypes: RecordTypesService;
  unitOfWork: UnitOfWork;
  dataVersions: DataVersions;
  clock: Clock;
}

/** Records read, checked and written at a time: what an import holds in memory, twice (one batch written, the next read). */
export const IMPORT_BATCH_RECORDS = 1000;

/** RecordsService.import: records of any kind from a stream, all or nothing. */
export async function importRecords(deps: RecordImportDeps, companyId: string, source: ByteSource, { format, onProgress }: ImportOptions): Promise<number> {
  const { repository, recordTypes, unitOfWork, dataVersions, clock } = deps;
  const now = clock.now().toISOString();
  /** The custom record types the records name, loaded as they come (undefined: no live type). */
  const types = new Map<string, CompiledRecordType | undefined>();
  /** Where each id was first seen, to name it in the problem of a later record with that id. */
  const firstPositionOfId = new Map<string, number>();

  const loadType = async (value: unknown, scope: TransactionScope | undefined) => {
    if (!isPlainObject(value) || typeof value.record_type !== 'string') return;
    const typeId = typeIdOf(value.record_type, value.uid);
    if (typeId === null || types.has(typeId)) return;
    types.set(typeId, (await recordTypes.compiledMany(companyId, [typeId], scope)).get(typeId));
  };

  const outcome = await importStream<RecordModel, RecordModel[]>({
    source,
    format,
    unitOfWork,
    readAhead: IMPORT_BATCH_RECORDS,
    batchSize: IMPORT_BATCH_RECORDS,
    async check(value, position, report, scope) {
      await loadType(value, scope);
      let reported = false;
      const record = parseImportedRecord(value, types, now, (field, message) => {
        reported = true;
        report(field, message);
      });
      if (!record || reported) return undefined;
      const first = firstPositionOfId.get(record.id);
      if (first !== undefined) {
        report('id', `'${record.id}' is also the id of ${importedRecordName(format, first)}`);
        return undefined;
      }
      firstPositionOfId.set(record.id, position);
      return record;
    },
    async checkBatch(batch, report, scope) {
      const taken = new Set(
        await repository.existingIds(
          companyId,
          batch.map(({ item }) => item.id),
          scope,
        ),
      );
      for (const { position, item } of batch) {
        if (taken.has(item.id)) report(position, 'id', `a record with id '${item.id}' already exists`);
      }
    },
    prepare: (records) => records,
    write: (records, scope, storedBefore) =>
      repository.insertMany(companyId, records, scope, onProgress && ((inserted) => onProgress(storedBefore + inserted))),
    finish: (scope) => dataVersions.bump(scope, companyId),
  });
  if (!outcome.refused) return outcome.stored;
  if (outcome.problemCount === 0) throw invalidBody(`nothing was imported: ${outcome.bodyProblem}`);
  throw importRefused(outcome.problems, outcome.problemCount, outcome.bodyProblem);
}
