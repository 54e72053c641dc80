import { isCalendarDateString } from '../../lib/timestamps.js';
import { emptyProblems, hasProblems, recordValidationError, type RecordValidationProblems } from '../records/validation-error.js';
import type { FieldDefinition, FieldType, RecordType } from './definition.js';

export type FieldValues = Record<string, unknown>;

/** The reserved PATCH key that sets a record's status. */
export const STATUS_KEY = 'status';

/**
 * A record type turned into the checks its records need, built once per (company, type,
 * version) and then reused: lookups by UID and by name, the required fields, and the views.
 */
export interface CompiledRecordType {
  readonly type: RecordType;
  readonly initialStatus: string;
  /** The statuses a record of this type may take (`["new"]` when the type lists none). */
  readonly allowedStatuses: readonly string[];
  /** Checks a create body (keys are field UIDs); returns the values keyed by field name. */
  validateCreate(body: Record<string, unknown>): FieldValues;
  /** Checks a PATCH body against the current values (keyed by field name) and merges it. */
  validatePatch(body: Record<string, unknown>, current: FieldValues): { fields: FieldValues; status?: string };
  /** The IDs of the views a record with this status is in, in the type's order. */
  viewsFor(status: string): string[];
  /** A view's statuses (empty: every record of the type), or undefined when the type has no such view. */
  viewStatuses(viewId: string): readonly string[] | undefined;
  /** The problems of imported field values keyed by field name (unknown names, wrong types). */
  importProblems(fields: FieldValues): string[];
}

const CHECKS: Record<FieldType, (value: unknown) => boolean> = {
  boolean: (value) => typeof value === 'boolean',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  string: (value) => typeof value === 'string',
  date: (value) => typeof value === 'string' && isCalendarDateString(value),
};

/** `null` and `""` both mean "no value": missing when required, cleared otherwise. */
const isNoValue = (value: unknown): boolean => value === null || value === '';

export function compileRecordType(type: RecordType): CompiledRecordType {
  const byUid = new Map<string, FieldDefinition>(type.fields.map((field) => [field.uid, field]));
  const byName = new Map<string, FieldDefinition>(type.fields.map((field) => [field.field_name, field]));
  const required = type.fields.filter((field) => field.required);
  const allowedStatuses = type.statuses.length > 0 ? type.statuses : ['new'];
  const views = new Map(type.views.map((view) => [view.id, view.statuses]));
  const statusExpectation = `one of: ${allowedStatuses.join(', ')}`;

  function checkValue(field: FieldDefinition, value: unknown, problems: RecordValidationProblems): boolean {
    if (CHECKS[field.type](value)) return true;
    problems.type_errors.push({ uid: field.uid, field_name: field.field_name, expected: field.type });
    return false;
  }

  return {
    type,
    initialStatus: allowedStatuses[0]!,
    allowedStatuses,

    validateCreate(body) {
      const problems = emptyProblems();
      const values = new Map<string, unknown>();
      for (const [key, value] of Object.entries(body)) {
        const field = byUid.get(key);
        if (!field) {
          problems.invalid_fields.push(key);
          continue;
        }
        if (isNoValue(value)) continue;
        if (checkValue(field, value, problems)) values.set(field.field_name, value);
      }
      for (const field of required) {
        if (!Object.hasOwn(body, field.uid) || isNoValue(body[field.uid])) {
          problems.required_fields.push({ uid: field.uid, field_name: field.field_name });
        }
      }
      if (hasProblems(problems)) throw recordValidationError(problems);
      // Fields in the type's order, whatever the order of the body.
      return Object.fromEntries(type.fields.filter((f) => values.has(f.field_name)).map((f) => [f.field_name, values.get(f.field_name)]));
    },

    validatePatch(body, current) {
      const problems = emptyProblems();
      const merged = new Map(Object.entries(current));
      let status: string | undefined;
      for (const [key, value] of Object.entries(body)) {
        if (key === STATUS_KEY) {
          if (typeof value === 'string' && allowedStatuses.includes(value)) status = value;
          else problems.type_errors.push({ uid: STATUS_KEY, field_name: STATUS_KEY, expected: statusExpectation });
          continue;
        }
        const field = byUid.get(key);
        if (!field) {
          problems.invalid_fields.push(key);
          continue;
        }
        if (isNoValue(value)) {
          if (field.required) problems.required_fields.push({ uid: field.uid, field_name: field.field_name });
          else merged.delete(field.field_name);
          continue;
        }
        if (checkValue(field, value, problems)) merged.set(field.field_name, value);
      }
      if (hasProblems(problems)) throw recordValidationError(problems);
      const order = new Map(type.fields.map((field, i) => [field.field_name, i]));
      const entries = [...merged.entries()].sort(([a], [b]) => (order.get(a) ?? Number.MAX_SAFE_INTEGER) - (order.get(b) ?? Number.MAX_SAFE_INTEGER));
      return { fields: Object.fromEntries(entries), ...(status === undefined ? {} : { status }) };
    },

    viewsFor(status) {
      return type.views.filter((view) => view.statuses.length === 0 || view.statuses.includes(status)).map((view) => view.id);
    },

    viewStatuses(viewId) {
      return views.get(viewId);
    },

    importProblems(fields) {
      const problems: string[] = [];
      for (const [name, value] of Object.entries(fields)) {
        const field = byName.get(name);
        if (!field) problems.push(`fields: '${name}' is not a field name of type '${type.id}'`);
        else if (value !== null && !CHECKS[field.type](value)) problems.push(`fields: '${name}' must be a ${field.type}`);
      }
      return problems;
    },
  };
}
