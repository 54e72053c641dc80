import type { AppError } from '../../errors/app-error.js';
import { batchRefused, namesWithMore, type ItemProblem } from '../../errors/item-problems.js';
import { uuidv7 } from '../../lib/ids.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import { isPlainObject } from '../record-types/definition.js';
import { toJsonColumn, typeIdOf } from './record.js';
import type { StoredRecord } from './stored-record.js';

/** Record ids travel in paths and query strings: printable, no separators, bounded. */
export const RECORD_ID_PATTERN = /^[^\s/?#]{1,200}$/;

const KEYS = new Set([
  'id',
  'record_type',
  'uid',
  'status',
  'parent_record',
  'child_records',
  'instance',
  'fields',
  'linked',
  'views',
  'created_at',
  'updated_at',
]);

/**
 * One record to import: its 0-based position in the batch and, for NDJSON, its line (named in
 * problem messages); `unreadable` says why it could not be read at all.
 */
export type ImportEntry = { readonly index: number; readonly line?: number } & (
  | { readonly value: unknown }
  | { readonly unreadable: string }
);

/** Reports a problem of the record being parsed: the field at fault (null: the record as a whole) and what is wrong. */
type Report = (field: string | null, message: string) => void;

/**
 * Turns imported records (the Record shape) into rows, exactly as written: absent keys stay
 * absent, `id` is kept when given. A record of a live custom type must fit it (its status,
 * its field names and value types, and, when given, its views). Throws one 400 listing the
 * problems of every record as `errors: [{index, field, message}]`.
 */
export function parseImportedRecords(
  entries: readonly ImportEntry[],
  types: ReadonlyMap<string, CompiledRecordType>,
  now: string,
  generateId: (millis: number) => string = uuidv7,
): StoredRecord[] {
  const problems: ItemProblem[] = [];
  const rows: StoredRecord[] = [];
  const firstEntryOfId = new Map<string, ImportEntry>();
  for (const entry of entries) {
    const report: Report = (field, message) => problems.push(importProblem(entry, field, message));
    if ('unreadable' in entry) {
      report(null, entry.unreadable);
      continue;
    }
    const before = problems.length;
    const row = parseOne(entry.value, types, now, report, generateId);
    if (!row || problems.length > before) continue;
    const first = firstEntryOfId.get(row.id);
    if (first !== undefined) report('id', `'${row.id}' is also the id of ${first.line === undefined ? `records[${first.index}]` : `line ${first.line}`}`);
    else firstEntryOfId.set(row.id, entry);
    rows.push(row);
  }
  if (problems.length > 0) throw importRefused(problems);
  return rows;
}

/** A problem of an entry; an NDJSON entry's message names its line too. */
export function importProblem(entry: ImportEntry, field: string | null, message: string): ItemProblem {
  return { index: entry.index, field, message: entry.line === undefined ? message : `line ${entry.line}: ${message}` };
}

export function importRefused(problems: readonly ItemProblem[]): AppError {
  return batchRefused('nothing was imported', problems);
}

function parseOne(
  input: unknown,
  types: ReadonlyMap<string, CompiledRecordType>,
  now: string,
  problem: Report,
  generateId: (millis: number) => string,
): StoredRecord | undefined {
  if (!isPlainObject(input)) {
    problem(null, 'must be a JSON object in the Record shape');
    return undefined;
  }
  for (const key of Object.keys(input)) if (!KEYS.has(key)) problem(key.slice(0, 200), 'is not a property of the Record shape');

  const id = input.id ?? generateId(Date.parse(now));
  if (typeof id !== 'string' || !RECORD_ID_PATTERN.test(id)) {
    problem('id', 'must be a string of 1 to 200 characters without spaces, "/", "?" or "#"');
  }
  const recordType = input.record_type;
  if (typeof recordType !== 'string' || recordType.length === 0 || recordType.length > 200) {
    problem('record_type', 'must be a non-empty string (uccfiling, custom, ...)');
    return undefined;
  }
  const typeId = typeIdOf(recordType, input.uid);
  const type = typeId === null ? undefined : types.get(typeId);

  const status = input.status ?? type?.initialStatus;
  if (typeof status !== 'string' || status.length === 0 || status.length > 200) {
    problem('status', 'must be a non-empty string');
  } else if (type && !type.allowedStatuses.includes(status)) {
    problem('status', `'${status}' is not a status of record type '${typeId}' (${namesWithMore(type.allowedStatuses)})`);
  }
  if (input.parent_record !== undefined && input.parent_record !== null && !isPlainObject(input.parent_record)) {
    problem('parent_record', 'must be an object or null');
  }
  if (input.child_records !== undefined && !Array.isArray(input.child_records)) problem('child_records', 'must be an array');
  if (input.fields !== undefined) {
    if (!isPlainObject(input.fields)) problem('fields', 'must be an object keyed by field name');
    else if (type) for (const text of type.importProblems(input.fields)) problem('fields', text.replace(/^fields: /, ''));
  }
  if (input.linked !== undefined) {
    if (!isPlainObject(input.linked) || !Object.values(input.linked).every(isPlainObject)) {
      problem('linked', 'must be an object keyed by source name, each value an object keyed by object name');
    }
  }
  const views = input.views ?? (type && typeof status === 'string' ? type.viewsFor(status) : []);
  if (!Array.isArray(views) || !views.every((view) => typeof view === 'string' && view.length > 0 && view.length <= 200)) {
    problem('views', 'must be an array of view IDs');
  } else if (type && typeof status === 'string') {
    const expected = type.viewsFor(status);
    if (views.length !== expected.length || views.some((view, i) => view !== expected[i])) {
      problem('views', `must be [${namesWithMore(expected)}], the views of record type '${typeId}' for status '${status}'`);
    }
  }
  const createdAt = timestamp(input.created_at, 'created_at', problem) ?? now;
  const updatedAt = timestamp(input.updated_at, 'updated_at', problem) ?? createdAt;

  return {
    id: id as string,
    record_type: recordType,
    type_id: typeId,
    uid: toJsonColumn(input.uid),
    status: status as string,
    parent_record: toJsonColumn(input.parent_record),
    child_records: JSON.stringify(input.child_records ?? []),
    instance: toJsonColumn(input.instance),
    fields: toJsonColumn(input.fields),
    linked: toJsonColumn(input.linked),
    views: JSON.stringify(views),
    created_at: createdAt,
    updated_at: updatedAt,
  };
}

function timestamp(value: unknown, name: string, problem: Report): string | undefined {
  if (value === undefined) return undefined;
  const parsed = typeof value === 'string' ? parseTimestampFilter(value) : null;
  if (!parsed) {
    problem(name, 'must be an ISO 8601 timestamp');
    return undefined;
  }
  return parsed.iso;
}
