import { invalidBody, invalidQuery, notFound, preconditionFailed } from '../../errors/app-error.js';
import { MAX_LISTED_PROBLEMS, type ItemProblem } from '../../errors/item-problems.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { nextItem, readJsonItems, type ByteSource, type JsonItemsFormat } from '../../lib/json-items.js';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import { STATUS_KEY } from '../record-types/compiled-type.js';
import { isPlainObject } from '../record-types/definition.js';
import type { DataVersions } from '../data-versions.port.js';
import type { RecordTypesService } from '../record-types/record-types-service.js';
import type { TransactionScope, UnitOfWork } from '../unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { importedRecordName, importProblem, importRefused, parseImportedRecord, type ImportReport } from './import.js';
import type { RecordListQuery } from './list-query.js';
import { assertMayChange, limitedRecord, recordAccessOf, type RecordAccess } from './record-access.js';
import { recordMatches, type RecordMatch } from './record-tag.js';
import type { RecordTokenNarrowing } from '../record-tokens/record-token.js';
import { CUSTOM_RECORD_TYPE, toRecordResource, typeIdOf, type RecordResource } from './record.js';
import type { RecordBound, RecordListFilter, RecordsRepository } from './records-repository.port.js';
import type { StoredRecord } from './stored-record.js';
import { emptyProblems, recordValidationError } from './validation-error.js';

/** Where a `next` / `prev` link leads: a cursor, or (none) the first page. */
export interface PageLink {
  readonly cursor?: { readonly kind: 'next' | 'prev'; readonly id: string };
}

export interface RecordPage {
  readonly results: RecordResource[];
  readonly next: PageLink | null;
  readonly prev: PageLink | null;
}

export interface RecordsOfType {
  readonly count: number;
  readonly results: RecordResource[];
}

export interface RecordsService {
  create(companyId: string, typeId: string, body: unknown): Promise<RecordResource>;
  /** With a record token's `narrowing`, the record as that token sees it (only its visible fields). */
  get(companyId: string, recordId: string, narrowing?: RecordTokenNarrowing): Promise<RecordResource>;
  /**
   * With `ifMatch`, a record whose current tag does not match is left as it is: a 412. With a
   * record token's `narrowing`, a change of anything the token may not change is a 403 (nothing
   * is changed), and `ifMatch` and the answer are of the record as the token sees it.
   */
  update(companyId: string, recordId: string, body: unknown, ifMatch?: RecordMatch, narrowing?: RecordTokenNarrowing): Promise<RecordResource>;
  list(companyId: string, query: RecordListQuery): Promise<RecordPage>;
  /**
   * The records that follow a custom record type, whether it is defined now or not (those a
   * new definition of it applies to): how many, and the `limit` most recently created.
   */
  ofType(companyId: string, typeId: string, limit: number): Promise<RecordsOfType>;
  /**
   * Imports records of any kind from a stream (NDJSON or one JSON array), checked and stored a
   * batch at a time in one transaction, and answers how many were stored. All or nothing: any
   * problem refuses the whole stream with one 400 listing the problems of every record (line or
   * index, field, what is wrong), and nothing is stored.
   */
  import(companyId: string, source: ByteSource, options: ImportOptions): Promise<number>;
  /** True when the company has the record. */
  exists(companyId: string, recordId: string): Promise<boolean>;
  /** The custom record type the record follows; null when it follows none or does not exist. */
  typeIdOf(companyId: string, recordId: string): Promise<string | null>;
}

export interface ImportOptions {
  readonly format: JsonItemsFormat;
  /** Called as the checked records are stored, with how many are stored so far (not yet committed). */
  readonly onProgress?: (stored: number) => void;
}

/** Records read, checked and written at a time: what an import holds in memory, twice (one batch written, the next read). */
const IMPORT_BATCH_RECORDS = 1000;
/** Thrown inside the transaction to roll it back once a problem is found. */
const ROLL_BACK = Symbol('roll back');

export interface RecordsServiceDeps {
  repository: RecordsRepository;
  recordTypes: RecordTypesService;
  unitOfWork: UnitOfWork;
  dataVersions: DataVersions;
  clock: Clock;
  /** Announces record.created and record.updated in the write's own transaction. */
  outbox: WebhookOutbox;
}

export function createRecordsService({ repository, recordTypes, unitOfWork, dataVersions, clock, outbox }: RecordsServiceDeps): RecordsService {
  const nowIso = () => clock.now().toISOString();

  async function resources(companyId: string, rows: readonly StoredRecord[], known?: ReadonlyMap<string, CompiledRecordType>) {
    const typeIds = [...new Set(rows.map((row) => row.type_id).filter((id): id is string => id !== null))];
    const types = known ?? (await recordTypes.compiledMany(companyId, typeIds));
    return rows.map((row) => toRecordResource(row, row.type_id === null ? undefined : types.get(row.type_id)));
  }

  async function cursorKey(companyId: string, kind: 'next' | 'prev', id: string): Promise<RecordBound> {
    const key = await repository.findKey(companyId, id);
    if (!key) throw invalidQuery(`${kind}: no record '${id}' to page from`, [kind]);
    return key;
  }

  return {
    async create(companyId, typeId, body) {
      const type = await recordTypes.compiled(companyId, typeId);
      if (!type) throw notFound(`record type '${typeId}' not found`);
      if (!isPlainObject(body)) throw invalidBody('the body must be a JSON object mapping field UIDs to values');
      const fields = type.validateCreate(body);
      const now = clock.now();
      const row: StoredRecord = {
        id: uuidv7(now.getTime()),
        record_type: CUSTOM_RECORD_TYPE,
        type_id: typeId,
        uid: JSON.stringify(typeId),
        status: type.initialStatus,
        parent_record: 'null',
        child_records: '[]',
        instance: null,
        fields: JSON.stringify(fields),
        linked: '{}',
        views: '[]',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      const resource = toRecordResource(row, type);
      await unitOfWork.run(async (scope) => {
        await repository.insertMany(companyId, [row], scope);
        await outbox.enqueue(scope, companyId, 'record.created', resource);
        await dataVersions.bump(scope, companyId);
      });
      return resource;
    },

    async get(companyId, recordId, narrowing) {
      const found = await repository.findWithTypeVersion(companyId, recordId);
      if (!found) throw notFound(`record '${recordId}' not found`);
      const { record, typeVersion } = found;
      const type = record.type_id === null || typeVersion === undefined ? undefined : await recordTypes.compiledAt(companyId, record.type_id, typeVersion);
      const resource = toRecordResource(record, type);
      const access = narrowing && recordAccessOf(type?.type, narrowing);
      return access ? limitedRecord(resource, type?.type, access) : resource;
    },

    async update(companyId, recordId, body, ifMatch, narrowing) {
      if (!isPlainObject(body)) throw invalidBody('the body must be a JSON object mapping field UIDs (and status) to values');
      // Validated (and If-Match compared) against the record and type as the write's own
      // transaction reads them, the record locked: a concurrent PATCH or type replacement is
      // either seen here or waits for this write to commit.
      let type: CompiledRecordType | undefined;
      let access: RecordAccess | undefined;
      const seenBy = (resource: RecordResource) => (access ? limitedRecord(resource, type?.type, access) : resource);
      const updated = await unitOfWork.run(async (scope) => {
        const written = await repository.update(
          companyId,
          recordId,
          (row, storedType) => {
            type = storedType && recordTypes.compile(companyId, storedType);
            access = narrowing && recordAccessOf(type?.type, narrowing);
            if (access) assertMayChange(body, type?.type, access);
            if (ifMatch && !recordMatches(seenBy(toRecordResource(row, type)), ifMatch)) {
              throw preconditionFailed(`record '${recordId}' has changed: its ETag matches no tag of If-Match; nothing was changed`);
            }
            if (type) {
              const current = row.fields === null ? {} : (JSON.parse(row.fields) as Record<string, unknown>);
              const change = type.validatePatch(body, current);
              return { status: change.status ?? row.status, fields: JSON.stringify(change.fields), updated_at: nowIso() };
            }
            return { status: untypedPatch(body).status ?? row.status, fields: row.fields, updated_at: nowIso() };
          },
          scope,
        );
        if (!written) return undefined;
        const resource = toRecordResource(written, type);
        await outbox.enqueue(scope, companyId, 'record.updated', resource);
        await dataVersions.bump(scope, companyId);
        return resource;
      });
      if (!updated) throw notFound(`record '${recordId}' not found`);
      return seenBy(updated);
    },

    async list(companyId, query) {
      const allTypes = query.viewId === undefined ? undefined : await recordTypes.compiledMany(companyId);
      // record_type may name one of the company's custom types (what the console shows): its records.
      const typeId =
        query.recordType === undefined || query.recordType === CUSTOM_RECORD_TYPE
          ? undefined
          : (allTypes ?? (await recordTypes.compiledMany(companyId, [query.recordType]))).get(query.recordType)?.type.id;
      const filter = listFilter(query, allTypes, typeId);
      const limit = query.limit;
      let rows: StoredRecord[];
      let next: PageLink | null = null;
      let prev: PageLink | null = null;

      if (query.cursor?.kind === 'prev') {
        const key = await cursorKey(companyId, 'prev', query.cursor.id);
        const fetched = await repository.page(companyId, filter, { before: key, descending: true, limit: limit + 1 });
        rows = fetched.slice(0, limit).reverse();
        if (fetched.length > limit) prev = { cursor: { kind: 'prev', id: rows[0]!.id } };
        if (rows.length > 0) {
          if (await repository.exists(companyId, filter, { after: { ...key, inclusive: true } })) {
            next = { cursor: { kind: 'next', id: rows[rows.length - 1]!.id } };
          }
        } else if (await repository.exists(companyId, filter, {})) {
          next = {};
        }
      } else {
        const key = query.cursor ? await cursorKey(companyId, 'next', query.cursor.id) : undefined;
        const fetched = await repository.page(companyId, filter, { ...(key ? { after: key } : {}), limit: limit + 1 });
        rows = fetched.slice(0, limit);
        if (fetched.length > limit) next = { cursor: { kind: 'next', id: rows[rows.length - 1]!.id } };
        if (key && rows.length > 0) {
          if (await repository.exists(companyId, filter, { before: { ...key, inclusive: true } })) {
            prev = { cursor: { kind: 'prev', id: rows[0]!.id } };
          }
        } else if (key) {
          prev = await lastPageUpTo(companyId, filter, key, limit);
        }
      }
      return { results: await resources(companyId, rows, allTypes), next, prev };
    },

    async ofType(companyId, typeId, limit) {
      const filter: RecordListFilter = { typeId };
      const [count, rows] = await Promise.all([repository.count(companyId, filter), repository.page(companyId, filter, { descending: true, limit })]);
      return { count, results: await resources(companyId, rows) };
    },

    async import(companyId, source, { format, onProgress }) {
      const now = nowIso();
      const items = readJsonItems(source, format);
      /** The custom record types the records name, loaded as they come (undefined: no live type). */
      const types = new Map<string, CompiledRecordType | undefined>();
      /** Where each id was first seen, to name it in the problem of a later record with that id. */
      const firstPositionOfId = new Map<string, number>();
      // Only the first problems are kept (an answer lists no more), the rest are counted.
      const problems: ItemProblem[] = [];
      let problemCount = 0;
      let bodyProblem: string | undefined;
      let done = false;
      const refused = () => problemCount > 0 || bodyProblem !== undefined;

      const loadType = async (value: unknown, scope: TransactionScope | undefined) => {
        if (!isPlainObject(value) || typeof value.record_type !== 'string') return;
        const typeId = typeIdOf(value.record_type, value.uid);
        if (typeId === null || types.has(typeId)) return;
        types.set(typeId, (await recordTypes.compiledMany(companyId, [typeId], scope)).get(typeId));
      };

      /**
       * Reads up to `size` records and checks them, then looks up which of their ids already
       * exist; answers the rows to store (none once anything was refused). The first problem
       * ends the batch at once, so that a transaction is rolled back without waiting for the
       * rest of the body; once refused, batches are read only to list their problems. Problems
       * are listed in the order of the body. Inside the transaction, `scope` is its own.
       */
      const readBatch = async (size: number, scope?: TransactionScope): Promise<StoredRecord[]> => {
        const clean = !refused();
        const batch: Array<{ position: number; row: StoredRecord }> = [];
        const found: Array<{ position: number; field: string | null; message: string }> = [];
        for (let read = 0; !done && read < size && !(clean && found.length > 0); read++) {
          const item = await nextItem(items);
          if (item.kind === 'end') {
            done = true;
            if (item.bodyProblem !== undefined) bodyProblem = item.bodyProblem;
            break;
          }
          if (item.kind === 'problem') {
            found.push({ position: item.position, field: null, message: item.message });
            done = item.last;
            continue;
          }
          await loadType(item.value, scope);
          const before = found.length;
          const report: ImportReport = (field, message) => found.push({ position: item.position, field, message });
          const row = parseImportedRecord(item.value, types, now, report, (millis) => uuidv7(millis));
          if (!row || found.length > before) continue;
          const first = firstPositionOfId.get(row.id);
          if (first !== undefined) {
            report('id', `'${row.id}' is also the id of ${importedRecordName(format, first)}`);
            continue;
          }
          firstPositionOfId.set(row.id, item.position);
          batch.push({ position: item.position, row });
        }
        if (batch.length > 0) {
          const taken = new Set(
            await repository.existingIds(
              companyId,
              batch.map(({ row }) => row.id),
              scope,
            ),
          );
          for (const { position, row } of batch) {
            if (taken.has(row.id)) found.push({ position, field: 'id', message: `a record with id '${row.id}' already exists` });
          }
        }
        // Stable: the problems of one record keep their order.
        found.sort((a, b) => a.position - b.position);
        for (const { position, field, message } of found) {
          problemCount++;
          if (problems.length < MAX_LISTED_PROBLEMS) problems.push(importProblem(format, position, field, message));
        }
        return refused() ? [] : batch.map(({ row }) => row);
      };

      try {
        // The first batch is read and checked before the transaction begins: a body refused at
        // once never takes the write lock.
        let batch = await readBatch(IMPORT_BATCH_RECORDS);
        let stored = 0;
        if (batch.length > 0) {
          await unitOfWork
            .run(async (scope) => {
              while (batch.length > 0) {
                // The next batch is read and checked while this one is written.
                const storedBefore = stored;
                const [writing, reading] = await Promise.allSettled([
                  repository.insertMany(companyId, batch, scope, onProgress && ((inserted) => onProgress(storedBefore + inserted))),
                  readBatch(IMPORT_BATCH_RECORDS, scope),
                ]);
                if (writing.status === 'rejected') throw writing.reason;
                if (reading.status === 'rejected') throw reading.reason;
                stored += batch.length;
                batch = reading.value;
              }
              if (refused()) throw ROLL_BACK;
              await dataVersions.bump(scope, companyId);
            })
            .catch((error: unknown) => {
              if (error !== ROLL_BACK) throw error;
            });
        }
        if (!refused()) return stored;
        // Rolled back at once; the rest of the body is still read, a batch at a time, to list every problem.
        while (!done) await readBatch(IMPORT_BATCH_RECORDS);
        if (problemCount === 0) throw invalidBody(`nothing was imported: ${bodyProblem}`);
        throw importRefused(problems, problemCount, bodyProblem);
      } finally {
        await items.return(undefined);
      }
    },

    async exists(companyId, recordId) {
      return (await repository.findKey(companyId, recordId)) !== undefined;
    },

    async typeIdOf(companyId, recordId) {
      return (await repository.find(companyId, recordId))?.type_id ?? null;
    },
  };

  /**
   * The link to the last page that ends at or before `key`, for an empty page past it: the
   * first page when everything fits, else the page after the record that precedes it.
   */
  async function lastPageUpTo(companyId: string, filter: RecordListFilter, key: RecordBound, limit: number): Promise<PageLink | null> {
    const tail = await repository.page(companyId, filter, { before: { ...key, inclusive: true }, descending: true, limit: limit + 1 });
    if (tail.length === 0) return null;
    if (tail.length <= limit) return {};
    return { cursor: { kind: 'next', id: tail[limit]!.id } };
  }
}

function listFilter(query: RecordListQuery, types: ReadonlyMap<string, CompiledRecordType> | undefined, typeId: string | undefined): RecordListFilter {
  const filter: { -readonly [K in keyof RecordListFilter]: RecordListFilter[K] } = {};
  if (typeId !== undefined) {
    filter.recordType = CUSTOM_RECORD_TYPE;
    filter.typeId = typeId;
  } else if (query.recordType !== undefined) filter.recordType = query.recordType;
  if (query.time) filter.time = { column: query.time.column, [query.time.bound]: query.time.iso };
  if (query.viewId !== undefined) {
    const viewId = query.viewId;
    const typed = [...(types ?? new Map<string, CompiledRecordType>()).values()].flatMap((type) => {
      const statuses = type.viewStatuses(viewId);
      return statuses === undefined ? [] : [{ typeId: type.type.id, statuses }];
    });
    filter.view = { viewId, typed };
  }
  return filter;
}

/** A record without a live type takes only `status` (any non-empty string). */
function untypedPatch(body: Record<string, unknown>): { status?: string } {
  const problems = emptyProblems();
  let status: string | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key !== STATUS_KEY) problems.invalid_fields.push(key);
    else if (typeof value === 'string' && value.length > 0 && value.length <= 200) status = value;
    else problems.type_errors.push({ uid: STATUS_KEY, field_name: STATUS_KEY, expected: 'string' });
  }
  if (problems.invalid_fields.length + problems.type_errors.length > 0) throw recordValidationError(problems);
  return status === undefined ? {} : { status };
}
