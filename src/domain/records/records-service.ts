import { invalidBody, invalidQuery, notFound, preconditionFailed } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { ByteSource } from '../../lib/json-items.js';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import { STATUS_KEY } from '../record-types/compiled-type.js';
import { isPlainObject } from '../record-types/definition.js';
import type { DataVersions } from '../data-versions.port.js';
import type { RecordTypesService } from '../record-types/record-types-service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { DEFAULT_RECORD_ORDER, RECORD_ORDERS, type RecordListQuery, type RecordOrder } from './list-query.js';
import { assertMayChange, limitedRecord, recordAccessOf, type RecordAccess } from './record-access.js';
import { importRecords, type ImportOptions } from './record-import.js';
import type { RecordModel } from './record-model.js';
import { recordMatches, type RecordMatch } from './record-tag.js';
import type { RecordTokenNarrowing } from '../record-tokens/record-token.js';
import { CUSTOM_RECORD_TYPE, toRecordResource, type RecordResource } from './record.js';
import type { RecordBound, RecordListFilter, RecordsRepository } from './records-repository.port.js';
import { emptyProblems, recordValidationError } from './validation-error.js';

const NEWEST_FIRST = RECORD_ORDERS['-created_at'];

export type { ImportOptions } from './record-import.js';

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

  async function resources(companyId: string, records: readonly RecordModel[], known?: ReadonlyMap<string, CompiledRecordType>) {
    const typeIds = [...new Set(records.map((record) => record.typeId).filter((id): id is string => id !== null))];
    const types = known ?? (await recordTypes.compiledMany(companyId, typeIds));
    return records.map((record) => toRecordResource(record, record.typeId === null ? undefined : types.get(record.typeId)));
  }

  async function cursorKey(companyId: string, kind: 'next' | 'prev', id: string, order: RecordOrder): Promise<RecordBound> {
    const key = await repository.findKey(companyId, id, order.column);
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
      const record: RecordModel = {
        id: uuidv7(now.getTime()),
        recordType: CUSTOM_RECORD_TYPE,
        typeId,
        uid: typeId,
        status: type.initialStatus,
        parentRecord: null,
        childRecords: [],
        instance: undefined,
        fields,
        linked: {},
        storedViews: [],
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      const resource = toRecordResource(record, type);
      await unitOfWork.run(async (scope) => {
        await repository.insertMany(companyId, [record], scope);
        await outbox.enqueue(scope, companyId, 'record.created', resource);
        await dataVersions.bump(scope, companyId);
      });
      return resource;
    },

    async get(companyId, recordId, narrowing) {
      const found = await repository.findWithTypeVersion(companyId, recordId);
      if (!found) throw notFound(`record '${recordId}' not found`);
      const { record, typeVersion } = found;
      const type = record.typeId === null || typeVersion === undefined ? undefined : await recordTypes.compiledAt(companyId, record.typeId, typeVersion);
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
          (record, storedType) => {
            type = storedType && recordTypes.compile(companyId, storedType);
            access = narrowing && recordAccessOf(type?.type, narrowing);
            if (access) assertMayChange(body, type?.type, access);
            if (ifMatch && !recordMatches(seenBy(toRecordResource(record, type)), ifMatch)) {
              throw preconditionFailed(`record '${recordId}' has changed: its ETag matches no tag of If-Match; nothing was changed`);
            }
            if (type) {
              const change = type.validatePatch(body, record.fields ?? {});
              return { status: change.status ?? record.status, fields: change.fields, updatedAt: nowIso() };
            }
            return { status: untypedPatch(body).status ?? record.status, fields: record.fields, updatedAt: nowIso() };
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
      const { limit, order } = query;
      let rows: RecordModel[];
      let next: PageLink | null = null;
      let prev: PageLink | null = null;

      if (query.cursor?.kind === 'prev') {
        const key = await cursorKey(companyId, 'prev', query.cursor.id, order);
        const fetched = await repository.page(companyId, filter, { order, before: key, backwards: true, limit: limit + 1 });
        rows = fetched.slice(0, limit).reverse();
        if (fetched.length > limit) prev = { cursor: { kind: 'prev', id: rows[0]!.id } };
        if (rows.length > 0) {
          if (await repository.exists(companyId, filter, { order, after: { ...key, inclusive: true } })) {
            next = { cursor: { kind: 'next', id: rows[rows.length - 1]!.id } };
          }
        } else if (await repository.exists(companyId, filter, { order })) {
          next = {};
        }
      } else {
        const key = query.cursor ? await cursorKey(companyId, 'next', query.cursor.id, order) : undefined;
        const fetched = await repository.page(companyId, filter, { order, ...(key ? { after: key } : {}), limit: limit + 1 });
        rows = fetched.slice(0, limit);
        if (fetched.length > limit) next = { cursor: { kind: 'next', id: rows[rows.length - 1]!.id } };
        if (key && rows.length > 0) {
          if (await repository.exists(companyId, filter, { order, before: { ...key, inclusive: true } })) {
            prev = { cursor: { kind: 'prev', id: rows[0]!.id } };
          }
        } else if (key) {
          prev = await lastPageUpTo(companyId, filter, order, key, limit);
        }
      }
      return { results: await resources(companyId, rows, allTypes), next, prev };
    },

    async ofType(companyId, typeId, limit) {
      const filter: RecordListFilter = { typeId };
      const [count, rows] = await Promise.all([repository.count(companyId, filter), repository.page(companyId, filter, { order: NEWEST_FIRST, limit })]);
      return { count, results: await resources(companyId, rows) };
    },

    import(companyId, source, options) {
      return importRecords({ repository, recordTypes, unitOfWork, dataVersions, clock }, companyId, source, options);
    },

    async exists(companyId, recordId) {
      return (await repository.findKey(companyId, recordId, DEFAULT_RECORD_ORDER.column)) !== undefined;
    },

    async typeIdOf(companyId, recordId) {
      return (await repository.find(companyId, recordId))?.typeId ?? null;
    },
  };

  /**
   * The link to the last page that ends at or before `key`, for an empty page past it: the
   * first page when everything fits, else the page after the record that precedes it.
   */
  async function lastPageUpTo(companyId: string, filter: RecordListFilter, order: RecordOrder, key: RecordBound, limit: number): Promise<PageLink | null> {
    const tail = await repository.page(companyId, filter, { order, before: { ...key, inclusive: true }, backwards: true, limit: limit + 1 });
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
