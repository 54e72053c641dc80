import type { RecordType, WrsRecord } from '@wrs/client';
import { exampleNumber, inputTextOf, readerNumberWriting, readNumber } from './locale-number';

export type FieldDefinition = RecordType['fields'][number];

/** What one input holds: the text of a text, number or date input, or a checkbox's state. */
export type InputValue = string | boolean;

/** The values on screen: the record's status and its fields by UID. */
export interface Draft {
  status: string;
  fields: Record<string, InputValue>;
}

export type PatchBody = Record<string, boolean | number | string | null>;

export interface PatchPlan {
  /** The PATCH body of what changed: field UIDs (and `status`) to their new values. */
  body: PatchBody;
  /** Problems found before sending, by field UID; when any, nothing is sent. */
  errors: Record<string, string>;
}

/** The inputs' values for a record of a type (its `fields` are keyed by field name). */
export function draftOf(record: WrsRecord, type: RecordType): Draft {
  const fields: Record<string, InputValue> = {};
  for (const field of type.fields) fields[field.uid] = inputValueOf(field, record.fields?.[field.field_name]);
  return { status: record.status, fields };
}

function inputValueOf(field: FieldDefinition, value: unknown): InputValue {
  if (field.type === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  // A number shows as the reader writes it (decimal comma where that is the habit), so it reads back the same.
  if (field.type === 'number' && typeof value === 'number') return inputTextOf(value, readerNumberWriting());
  return String(value);
}

/** The PATCH of the changes from `base` (the record as loaded) to `draft` (as edited). */
export function planPatch(type: RecordType, base: Draft, draft: Draft): PatchPlan {
  const body: PatchBody = {};
  const errors: Record<string, string> = {};
  if (draft.status !== base.status) body.status = draft.status;
  for (const field of type.fields) {
    const value = draft.fields[field.uid];
    if (value === undefined || value === base.fields[field.uid]) continue;
    const parsed = parse(field, value);
    if ('error' in parsed) errors[field.uid] = parsed.error;
    else body[field.uid] = parsed.value;
  }
  return { body, errors };
}

type Parsed = { value: boolean | number | string | null } | { error: string };

function parse(field: FieldDefinition, value: InputValue): Parsed {
  if (typeof value === 'boolean') return { value };
  const text = field.type === 'string' ? value : value.trim();
  if (text === '') return field.required ? { error: 'This field is required.' } : { value: null };
  if (field.type === 'number') {
    const writing = readerNumberWriting();
    const number = readNumber(text, writing);
    return number === undefined ? { error: `Enter a number, such as ${exampleNumber(writing)} or 99${writing.decimal}95.` } : { value: number };
  }
  return { value: text };
}

/** The user's edits (what differs from `base`) laid over `next`, a newer version of the record. */
export function rebaseDraft(base: Draft, draft: Draft, next: Draft): Draft {
  const fields = { ...next.fields };
  for (const [uid, value] of Object.entries(draft.fields)) {
    if (value !== base.fields[uid] && uid in next.fields) fields[uid] = value;
  }
  return { status: draft.status !== base.status ? draft.status : next.status, fields };
}

/** Whether the user changed anything since the record was loaded. */
export function hasEdits(base: Draft, draft: Draft): boolean {
  return draft.status !== base.status || Object.entries(draft.fields).some(([uid, value]) => value !== base.fields[uid]);
}
