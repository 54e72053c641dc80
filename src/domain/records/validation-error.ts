import { recordInvalid, type AppError } from '../../errors/app-error.js';
import { boundedList, namesWithMore } from '../../errors/item-problems.js';
import { clipped } from '../../lib/text.js';

export interface MissingField {
  uid: string;
  field_name: string;
}

export interface TypeError {
  uid: string;
  field_name: string;
  expected: string;
}

export interface RecordValidationProblems {
  invalid_fields: string[];
  required_fields: MissingField[];
  type_errors: TypeError[];
}

export function emptyProblems(): RecordValidationProblems {
  return { invalid_fields: [], required_fields: [], type_errors: [] };
}

export function hasProblems(problems: RecordValidationProblems): boolean {
  return problems.invalid_fields.length + problems.required_fields.length + problems.type_errors.length > 0;
}

/**
 * The CreateRecordValidationError body: always all three lists, every problem at once. Each
 * list names at most MAX_LISTED_PROBLEMS (an error body must not grow with the input); the
 * message gives each list's total and `error_count` the total of all three.
 */
export function recordValidationError(problems: RecordValidationProblems): AppError {
  const { invalid_fields: invalid, required_fields: required, type_errors: types } = problems;
  const parts: string[] = [];
  if (invalid.length) {
    parts.push(`${invalid.length} unknown field ID(s): ${namesWithMore(invalid.map((name) => clipped(name)))}`);
  }
  if (required.length) {
    parts.push(`${required.length} missing required field(s): ${namesWithMore(required.map((f) => `${f.field_name} (${f.uid})`))}`);
  }
  if (types.length) {
    parts.push(`${types.length} wrong type(s): ${namesWithMore(types.map((f) => `${f.field_name} (${f.uid}) expects ${f.expected}`))}`);
  }
  return recordInvalid(`record validation failed: ${parts.join('; ')}`, {
    invalid_fields: boundedList(invalid).listed,
    required_fields: boundedList(required).listed,
    type_errors: boundedList(types).listed,
    error_count: invalid.length + required.length + types.length,
  });
}
