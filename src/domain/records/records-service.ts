import { invalidBody, invalidQuery, notFound, preconditionFailed } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import { STATUS_KEY } from '../record-types/compiled-type.js';
import { isPlainObject } from '../record-types/definition.js';
import type { DataVersions } from '../data-versions.port.js';
import type { RecordTypesService } from '../record-types/record-types-service.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';
import { importProblem, importRefused, parseImportedRecords, type ImportEntry } from './import.js';
import type { RecordListQuery } from './list-query.js';
import { recordMatches, type RecordMatch } from './record-tag.js';
import { CUSTOM_RECORD_TYPE, toRecordResource, type RecordResource } from './record.js';
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

export interface RecordsService {
  create(companyId: string, typeId: string, body: unknown): Promise<RecordResource>;
  get(companyId: string, recordId: string): Promise<RecordResource>;
  /** With `ifMatch`, a record whose current tag does not match is left as it is: a 412. */
  update(companyId: string, recordId: string, body: unknown, ifMatch?: RecordMatch): Promise<RecordResource>;
  list(companyId: string, query: RecordListQuery): Promise<RecordPage>;
  /** Imports records of any kind, all or nothing; a 400 lists the problems of every entry. */
  import(companyId: string, entries: readonly ImportEntry[], options?: ImportOptions): Promise<number>;
  /** True when the company has the record. */
  exists(companyId: string, recordId: string): Promise<boolean>;
  /** The custom record type the record follows; null when it follows none or does not exist. */
  typeIdOf(companyId: string, recordId: string): Promise<string | null>;
}

export interface ImportOptions {
  /** Called as the checked records are stored, with how many are stored so far (not yet committed). */
  readonly onProgress?: (stored: number) => void;
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

    async get(companyId, recordId) {
      const found = await repository.findWithTypeVersion(companyId, recordId);
      if (!found) throw notFound(`record '${recordId}' not found`);
      const { record, typeVersion } = found;
      const type = record.type_id === null || typeVersion === undefined ? undefined : await recordTypes.compiledAt(companyId, record.type_id, typeVersion);
      return toRecordResource(record, type);
    },

    async update(companyId, recordId, body, ifMatch) {
      if (!isPlainObject(body)) throw invalidBody('the body must be a JSON object mapping field UIDs (and status) to values');
      // Validated (and If-Match compared) against the record and type as the write's own
      // transaction reads them, the record locked: a concurrent PATCH or type replacement is
      // either seen here or waits for this write to commit.
      let type: CompiledRecordType | undefined;
      const updated = await unitOfWork.run(async (scope) => {
        const written = await repository.update(
          companyId,
          recordId,
          (row, storedType) => {
            type = storedType && recordTypes.compile(companyId, storedType);
            if (ifMatch && !recordMatches(toRecordResource(row, type), ifMatch)) {
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
      return updated;
    },

    async list(companyId, query) {
      const allTypes = query.viewId === undefined ? undefined : await recordTypes.compiledMany(companyId);
      const filter = listFilter(query, allTypes);
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

    async import(companyId, entries, options = {}) {
      const typeIds = new Set<string>();
      for (const entry of entries) {
        const value = 'value' in entry ? entry.value : undefined;
        if (isPlainObject(value) && value.record_type === CUSTOM_RECORD_TYPE && typeof value.uid === 'string') typeIds.add(value.uid);
      }
      const types = await recordTypes.compiledMany(companyId, [...typeIds]);
      const rows = parseImportedRecords(entries, types, nowIso(), (millis) => uuidv7(millis));
      const taken = new Set(await repository.existingIds(companyId, rows.map((row) => row.id)));
      if (taken.size > 0) {
        throw importRefused(
          rows.flatMap((row, i) => (taken.has(row.id) ? [importProblem(entries[i]!, 'id', `a record with id '${row.id}' already exists`)] : [])),
        );
      }
      await unitOfWork.run(async (scope) => {
        await repository.insertMany(companyId, rows, scope, options.onProgress);
        await dataVersions.bump(scope, companyId);
      });
      return rows.length;
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

function listFilter(query: RecordListQuery, types: ReadonlyMap<string, CompiledRecordType> | undefined): RecordListFilter {
  const filter: { -readonly [K in keyof RecordListFilter]: RecordListFilter[K] } = {};
  if (query.recordType !== undefined) filter.recordType = query.recordType;
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
