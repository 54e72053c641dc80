import { forbidden } from '../../errors/app-error.js';
import { namesWithMore } from '../../errors/item-problems.js';
import { clipped } from '../../lib/text.js';
import type { RecordTokenNarrowing } from '../record-tokens/record-token.js';
import { STATUS_KEY } from '../record-types/compiled-type.js';
import type { RecordType } from '../record-types/definition.js';
import type { RecordResource } from './record.js';

/** What a record token may see and change of its record: the type's form, narrowed by the mint. */
export interface RecordAccess {
  /** Field UIDs shown. */
  readonly visible: ReadonlySet<string>;
  /** Field UIDs that may be changed (a subset of visible). */
  readonly editable: ReadonlySet<string>;
  readonly statusEditable: boolean;
}

/**
 * The access of a token with `narrowing` to a record of `type` (undefined: a record of no live
 * type); undefined when nothing limits it, a type without a form and a mint that narrowed
 * nothing: the token sees and changes every field and the status.
 */
export function recordAccessOf(type: RecordType | undefined, narrowing: RecordTokenNarrowing): RecordAccess | undefined {
  const form = type?.form;
  if (!form && narrowing.visible_fields === null && narrowing.status_editable === null) return undefined;
  const shown = form ? form.fields : (type?.fields ?? []).map((field) => ({ uid: field.uid, editable: true }));
  const narrowed = narrowing.visible_fields === null ? undefined : new Set(narrowing.visible_fields);
  const visible = shown.filter((field) => !narrowed || narrowed.has(field.uid));
  return {
    visible: new Set(visible.map((field) => field.uid)),
    editable: new Set(visible.filter((field) => field.editable).map((field) => field.uid)),
    statusEditable: (form ? form.status_editable : true) && narrowing.status_editable !== false,
  };
}

/** The fields a token sees, in the form's order (the type's when it has no form), each with whether it may change it. */
export function accessibleFields(type: RecordType | undefined, access: RecordAccess): Array<{ uid: string; editable: boolean }> {
  const order = type?.form ? type.form.fields.map((field) => field.uid) : (type?.fields ?? []).map((field) => field.uid);
  return order.filter((uid) => access.visible.has(uid)).map((uid) => ({ uid, editable: access.editable.has(uid) }));
}

/**
 * The record type as the token sees it: only its visible fields, and a `form` that says what
 * the token may change (title and instructions kept), so that a form page needs nothing else.
 */
export function typeAsSeen(type: RecordType, access: RecordAccess): RecordType {
  const fields = accessibleFields(type, access);
  const byUid = new Map(type.fields.map((field) => [field.uid, field]));
  return {
    ...type,
    fields: fields.map(({ uid }) => byUid.get(uid)!),
    form: {
      ...(type.form?.title === undefined ? {} : { title: type.form.title }),
      ...(type.form?.instructions === undefined ? {} : { instructions: type.form.instructions }),
      fields,
      status_editable: access.statusEditable,
    },
  };
}

/** The record as the token sees it: `fields` holds only the visible fields. */
export function limitedRecord(record: RecordResource, type: RecordType | undefined, access: RecordAccess): RecordResource {
  if (record.fields === undefined) return record;
  const visibleNames = new Set((type?.fields ?? []).filter((field) => access.visible.has(field.uid)).map((field) => field.field_name));
  const fields = Object.fromEntries(Object.entries(record.fields).filter(([name]) => visibleNames.has(name)));
  return { ...record, fields };
}

/**
 * Refuses (403, naming each) a PATCH body's keys the token may not change: the status when not
 * editable, and fields of the type that are hidden from it or read-only. Keys that are no field
 * of the type are left to the body's validation (400).
 */
export function assertMayChange(body: Record<string, unknown>, type: RecordType | undefined, access: RecordAccess): void {
  const typeUids = new Set((type?.fields ?? []).map((field) => field.uid));
  const refused: string[] = [];
  for (const key of Object.keys(body)) {
    if (key === STATUS_KEY) {
      if (!access.statusEditable) refused.push(`'${STATUS_KEY}' (not editable)`);
    } else if (typeUids.has(key) && !access.editable.has(key)) {
      refused.push(`'${clipped(key)}' (${access.visible.has(key) ? 'read-only' : 'not visible'})`);
    }
  }
  if (refused.length > 0) throw forbidden(`this record token may not change ${namesWithMore(refused)}; nothing was changed`);
}
