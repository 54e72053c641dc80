import type { AppError } from '../../errors/app-error.js';
import { batchRefused, namesWithMore, type ItemProblem } from '../../errors/item-problems.js';
import { uuidv7 } from '../../lib/ids.js';
import { nestsDeeperThan, TOO_DEEP } from '../../lib/json-nesting.js';
import type { JsonItemsFormat } from '../../lib/json-items.js';
import { clipped, unstorableTextPlaces } from '../../lib/text.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import type { CompiledRecordType } from '../record-types/compiled-type.js';
import { isPlainObject } from '../record-types/definition.js';
import { typeIdOf } from './record.js';
import type { JsonObject, RecordModel } from './record-model.js';

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

/** Reports a problem of the record being parsed: the field at fault (null: the record as a whole) and what is wrong. */
export type ImportReport = (field: string | null, message: string) => void;

/**
 * Turns one imported record (the Record shape) into a record, exactly as written: absent keys stay
 * absent, `id` is kept when given. A record of a live custom type must fit it (its status,
 * its field names and value types, and, when given, its views). Text the databases cannot
 * store (NUL, unpaired surrogates) is a problem naming its place, e.g. `fields.Borrower`; such a
 * record is not checked further (no message echoes its text). Every problem goes to `report`;
 * the record is undefined, or not to be stored, when any was reported.
 */
export function parseImportedRecord(
  input: unknown,
  types: ReadonlyMap<string, CompiledRecordType | undefined>,
  now: string,
  report: ImportReport,
  generateId: (millis: number) => string = uuidv7,
): RecordModel | undefined {
  const unstorable = unstorableTextPlaces(input);
  if (unstorable.length > 0) {
    for (const { path, key } of unstorable) {
      report(
        path === '' ? null : clipped(path),
        key ? 'a key may not hold NUL characters or unpaired surrogates' : 'text may not hold NUL characters or unpaired surrogates',
      );
    }
    return undefined;
  }
  if (isPlainObject(input)) {
    const tooDeep = Object.keys(input).filter((key) => nestsDeeperThan(input[key]));
    for (const key of tooDeep) report(clipped(key), TOO_DEEP);
    if (tooDeep.length > 0) return undefined;
  }
  return parseOne(input, types, now, report, generateId);
}

/** How a problem message names the record at `position`: `records[3]`, or `line 4` of NDJSON. */
export function importedRecordName(format: JsonItemsFormat, position: number): string {
  return format === 'ndjson' ? `line ${position}` : `records[${position}]`;
}

export function importRefused(problems: readonly ItemProblem[], total = problems.length, bodyProblem?: string): AppError {
  return batchRefused(bodyProblem === undefined ? 'nothing was imported' : `nothing was imported (${bodyProblem})`, problems, total);
}

function parseOne(
  input: unknown,
  types: ReadonlyMap<string, CompiledRecordType | undefined>,
  now: string,
  problem: ImportReport,
  generateId: (millis: number) => string,
): RecordModel | undefined {
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
    recordType,
    typeId,
    uid: input.uid,
    status: status as string,
    parentRecord: input.parent_record as JsonObject | null | undefined,
    childRecords: (input.child_records ?? []) as unknown[],
    instance: input.instance,
    fields: input.fields as JsonObject | undefined,
    linked: input.linked as Record<string, JsonObject> | undefined,
    storedViews: views as string[],
    createdAt,
    updatedAt,
  };
}

function timestamp(value: unknown, name: string, problem: ImportReport): string | undefined {
  if (value === undefined) return undefined;
  const parsed = typeof value === 'string' ? parseTimestampFilter(value) : null;
  if (!parsed) {
    problem(name, 'must be an ISO 8601 timestamp');
    return undefined;
  }
  return parsed.iso;
}
