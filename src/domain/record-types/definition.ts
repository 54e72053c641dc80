import { invalidBody } from '../../errors/app-error.js';
import { boundedList, namesWithMore } from '../../errors/item-problems.js';
import { clipped } from '../../lib/text.js';

export const FIELD_TYPES = ['boolean', 'number', 'string', 'date'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldDefinition {
  readonly uid: string;
  readonly field_name: string;
  readonly type: FieldType;
  readonly required: boolean;
}

export interface ViewDefinition {
  readonly id: string;
  readonly name: string;
  /** Statuses of the records in the view; empty means every record of the type. */
  readonly statuses: string[];
}

/** A field of the form an outsider fills in with a record token. */
export interface FormFieldDefinition {
  readonly uid: string;
  /** Shown read-only when false. */
  readonly editable: boolean;
}

/**
 * What a record token of the type sees and may change: only the fields listed, and the status
 * only when `status_editable`. A type without a form lets a record token see and change all.
 */
export interface FormDefinition {
  readonly title?: string;
  readonly instructions?: string;
  readonly fields: FormFieldDefinition[];
  readonly status_editable: boolean;
}

export interface RecordTypeDefinition {
  readonly name: string;
  readonly fields: FieldDefinition[];
  readonly statuses: string[];
  readonly views: ViewDefinition[];
  readonly form?: FormDefinition;
}

export interface RecordType extends RecordTypeDefinition {
  readonly id: string;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** `status` is the reserved key of PATCH /records/{record}, so it cannot be a field UID. */
export const RESERVED_FIELD_UIDS: readonly string[] = ['status'];

export const DEFINITION_LIMITS = { fields: 500, statuses: 200, views: 200, text: 200, instructions: 4000 } as const;

const TYPE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

export function isValidTypeId(typeId: string): boolean {
  return TYPE_ID.test(typeId);
}

/**
 * Checks a record type definition and returns it normalised, or throws one 400 that lists
 * every problem found (structure and consistency alike), each prefixed with where it is.
 */
export function parseRecordTypeDefinition(typeId: string, input: unknown): RecordTypeDefinition {
  const problems: string[] = [];
  if (!isValidTypeId(typeId)) {
    problems.push(`typeId: must be 1 to 200 letters, digits, '.', '_', ':' or '-', starting with a letter or digit`);
  }
  if (!isPlainObject(input)) {
    throw invalidBody('a record type definition must be a JSON object', { problems: ['body: must be a JSON object'] });
  }
  for (const key of Object.keys(input)) {
    if (!['id', 'name', 'fields', 'statuses', 'views', 'form'].includes(key)) problems.push(`${clipped(key)}: unknown property`);
  }
  if (input.id !== undefined && input.id !== typeId) problems.push(`id: must equal the typeId of the path ('${typeId}')`);

  const name = text(input.name, 'name', problems);
  const statuses = parseStatuses(input.statuses, problems);
  const fields = parseFields(input.fields, problems);
  const views = parseViews(input.views, statuses, problems);
  const form = input.form === undefined || input.form === null ? undefined : parseForm(input.form, fields, problems);

  if (problems.length > 0) {
    throw invalidBody(`invalid record type definition: ${namesWithMore(problems, '; ')}`, { problems: boundedList(problems).listed });
  }
  return { name: name!, fields, statuses, views, ...(form ? { form } : {}) };
}

/** `editable` defaults to true (a field is listed to be filled in); `status_editable` to false. */
function parseForm(value: unknown, typeFields: readonly FieldDefinition[], problems: string[]): FormDefinition | undefined {
  if (!isPlainObject(value)) {
    problems.push('form: must be an object {title, instructions, fields, status_editable}');
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!['title', 'instructions', 'fields', 'status_editable'].includes(key)) problems.push(`form.${clipped(key)}: unknown property`);
  }
  const title = value.title === undefined ? undefined : text(value.title, 'form.title', problems);
  let instructions: string | undefined;
  if (value.instructions !== undefined) {
    if (typeof value.instructions !== 'string') problems.push('form.instructions: must be a string');
    else if (value.instructions.length > DEFINITION_LIMITS.instructions) {
      problems.push(`form.instructions: at most ${DEFINITION_LIMITS.instructions} characters`);
    } else if (value.instructions.trim() !== '') instructions = value.instructions;
  }
  const statusEditable = value.status_editable ?? false;
  if (typeof statusEditable !== 'boolean') problems.push('form.status_editable: must be true or false');
  const fields: FormFieldDefinition[] = [];
  if (!Array.isArray(value.fields)) {
    problems.push(`form.fields: must be an array of {uid, editable}${value.fields === undefined ? ' (missing)' : ''}`);
  } else {
    const known = new Set(typeFields.map((field) => field.uid));
    const seen = new Set<string>();
    value.fields.forEach((field, i) => {
      const at = `form.fields[${i}]`;
      if (!isPlainObject(field)) {
        problems.push(`${at}: must be an object {uid, editable}`);
        return;
      }
      for (const key of Object.keys(field)) {
        if (!['uid', 'editable'].includes(key)) problems.push(`${at}.${clipped(key)}: unknown property`);
      }
      const uid = text(field.uid, `${at}.uid`, problems);
      const editable = field.editable ?? true;
      if (typeof editable !== 'boolean') problems.push(`${at}.editable: must be true or false`);
      if (uid === undefined) return;
      if (!known.has(uid)) problems.push(`${at}.uid: '${clipped(uid)}' is not a field of the type`);
      else if (seen.has(uid)) problems.push(`${at}.uid: duplicate uid '${uid}'`);
      else {
        seen.add(uid);
        fields.push({ uid, editable: editable !== false });
      }
    });
  }
  return {
    ...(title === undefined ? {} : { title }),
    ...(instructions === undefined ? {} : { instructions }),
    fields,
    status_editable: statusEditable === true,
  };
}

function parseStatuses(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push('statuses: must be an array of strings');
    return [];
  }
  if (value.length > DEFINITION_LIMITS.statuses) problems.push(`statuses: at most ${DEFINITION_LIMITS.statuses} statuses`);
  const statuses: string[] = [];
  value.forEach((status, i) => {
    const checked = text(status, `statuses[${i}]`, problems);
    if (checked === undefined) return;
    if (statuses.includes(checked)) problems.push(`statuses[${i}]: duplicate status '${checked}'`);
    else statuses.push(checked);
  });
  return statuses;
}

function parseFields(value: unknown, problems: string[]): FieldDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push('fields: must be an array of {uid, field_name, type, required}');
    return [];
  }
  if (value.length > DEFINITION_LIMITS.fields) problems.push(`fields: at most ${DEFINITION_LIMITS.fields} fields`);
  const fields: FieldDefinition[] = [];
  const uidAt = new Map<string, number>();
  const nameAt = new Map<string, number>();
  value.forEach((field, i) => {
    const at = `fields[${i}]`;
    if (!isPlainObject(field)) {
      problems.push(`${at}: must be an object {uid, field_name, type, required}`);
      return;
    }
    for (const key of Object.keys(field)) {
      if (!['uid', 'field_name', 'type', 'required'].includes(key)) problems.push(`${at}.${clipped(key)}: unknown property`);
    }
    const uid = text(field.uid, `${at}.uid`, problems);
    if (uid !== undefined) {
      if (RESERVED_FIELD_UIDS.includes(uid)) problems.push(`${at}.uid: '${uid}' is reserved`);
      const first = uidAt.get(uid);
      if (first !== undefined) problems.push(`${at}.uid: duplicate uid '${uid}' (also fields[${first}])`);
      else uidAt.set(uid, i);
    }
    const fieldName = text(field.field_name, `${at}.field_name`, problems);
    if (fieldName !== undefined) {
      const first = nameAt.get(fieldName);
      if (first !== undefined) problems.push(`${at}.field_name: duplicate field name '${fieldName}' (also fields[${first}])`);
      else nameAt.set(fieldName, i);
    }
    const type = field.type;
    if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type)) {
      problems.push(`${at}.type: must be one of ${FIELD_TYPES.join(', ')} (got ${clipped(JSON.stringify(type ?? null))})`);
    }
    const required = field.required ?? false;
    if (typeof required !== 'boolean') problems.push(`${at}.required: must be true or false`);
    if (uid !== undefined && fieldName !== undefined) {
      fields.push({ uid, field_name: fieldName, type: type as FieldType, required: required === true });
    }
  });
  return fields;
}

function parseViews(value: unknown, statuses: readonly string[], problems: string[]): ViewDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push('views: must be an array of {id, name, statuses}');
    return [];
  }
  if (value.length > DEFINITION_LIMITS.views) problems.push(`views: at most ${DEFINITION_LIMITS.views} views`);
  const views: ViewDefinition[] = [];
  const idAt = new Map<string, number>();
  value.forEach((view, i) => {
    const at = `views[${i}]`;
    if (!isPlainObject(view)) {
      problems.push(`${at}: must be an object {id, name, statuses}`);
      return;
    }
    for (const key of Object.keys(view)) {
      if (!['id', 'name', 'statuses'].includes(key)) problems.push(`${at}.${clipped(key)}: unknown property`);
    }
    const id = text(view.id, `${at}.id`, problems);
    if (id !== undefined) {
      const first = idAt.get(id);
      if (first !== undefined) problems.push(`${at}.id: duplicate view id '${id}' (also views[${first}])`);
      else idAt.set(id, i);
    }
    const name = text(view.name, `${at}.name`, problems);
    const viewStatuses: string[] = [];
    if (view.statuses !== undefined && !Array.isArray(view.statuses)) {
      problems.push(`${at}.statuses: must be an array of statuses of the type`);
    } else {
      ((view.statuses as unknown[] | undefined) ?? []).forEach((status, j) => {
        const checked = text(status, `${at}.statuses[${j}]`, problems);
        if (checked === undefined) return;
        if (!statuses.includes(checked)) {
          problems.push(`${at}.statuses[${j}]: '${checked}' is not one of the type's statuses`);
        } else if (viewStatuses.includes(checked)) {
          problems.push(`${at}.statuses[${j}]: duplicate status '${checked}'`);
        } else {
          viewStatuses.push(checked);
        }
      });
    }
    if (id !== undefined && name !== undefined) views.push({ id, name, statuses: viewStatuses });
  });
  return views;
}

/** A required, non-blank string of at most the text limit; records a problem otherwise. */
function text(value: unknown, at: string, problems: string[]): string | undefined {
  if (typeof value !== 'string') {
    problems.push(`${at}: must be a string${value === undefined ? ' (missing)' : ''}`);
    return undefined;
  }
  if (value.trim() === '') {
    problems.push(`${at}: must not be empty`);
    return undefined;
  }
  if (value.length > DEFINITION_LIMITS.text) {
    problems.push(`${at}: at most ${DEFINITION_LIMITS.text} characters`);
    return undefined;
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
