import { AppError } from '../../errors/app-error.js';

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

/** The CreateRecordValidationError body: always all three lists, every problem at once. */
export function recordValidationError(problems: RecordValidationProblems): AppError {
  const parts: string[] = [];
  if (problems.invalid_fields.length) {
    parts.push(`unknown field IDs: ${problems.invalid_fields.join(', ')}`);
  }
  if (problems.required_fields.length) {
    parts.push(`missing required fields: ${problems.required_fields.map((f) => `${f.field_name} (${f.uid})`).join(', ')}`);
  }
  if (problems.type_errors.length) {
    parts.push(`wrong types: ${problems.type_errors.map((f) => `${f.field_name} (${f.uid}) expects ${f.expected}`).join(', ')}`);
  }
  return new AppError(400, 'validation_failed', `record validation failed: ${parts.join('; ')}`, {
    details: { ...problems },
  });
}
