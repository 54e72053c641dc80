import type { RecordType } from '@wrs/client';

export type { RecordType };

export const FIELD_TYPES = ['string', 'number', 'date', 'boolean'] as const;

export interface FieldDraft {
  uid: string;
  field_name: string;
  type: string;
  required: boolean;
  /** On the hosted form (when the type has a form), and whether a record token may change it. */
  onForm: boolean;
  editable: boolean;
}

export interface ViewDraft {
  id: string;
  name: string;
  /** The view's statuses; none: every record of the type. */
  statuses: string[];
}

/** A record type as the editor holds it: one row per field, the form's choices beside each field. */
export interface TypeDraft {
  id: string;
  name: string;
  fields: FieldDraft[];
  statuses: string[];
  views: ViewDraft[];
  hasForm: boolean;
  formTitle: string;
  formInstructions: string;
  statusEditable: boolean;
}

export function emptyDraft(id = ''): TypeDraft {
  return {
    id,
    name: '',
    fields: [],
    statuses: ['new'],
    views: [],
    hasForm: false,
    formTitle: '',
    formInstructions: '',
    statusEditable: false,
  };
}

export function draftOf(type: RecordType): TypeDraft {
  const formFields = new Map((type.form?.fields ?? []).map((field) => [field.uid, field.editable !== false]));
  return {
    id: type.id,
    name: type.name,
    fields: type.fields.map((field) => ({
      uid: field.uid,
      field_name: field.field_name,
      type: field.type,
      required: field.required,
      onForm: formFields.has(field.uid),
      editable: formFields.get(field.uid) ?? true,
    })),
    statuses: [...type.statuses],
    views: type.views.map((view) => ({ id: view.id, name: view.name, statuses: [...view.statuses] })),
    hasForm: type.form !== undefined,
    formTitle: type.form?.title ?? '',
    formInstructions: type.form?.instructions ?? '',
    statusEditable: type.form?.status_editable ?? false,
  };
}

/** The PUT body; nothing is checked here: the service checks it and names every problem. */
export function bodyOf(draft: TypeDraft) {
  const onForm = draft.fields.filter((field) => field.onForm);
  return {
    name: draft.name,
    fields: draft.fields.map(({ uid, field_name, type, required }) => ({ uid, field_name, type: type as (typeof FIELD_TYPES)[number], required })),
    statuses: draft.statuses,
    views: draft.views.map((view) => ({ id: view.id, name: view.name, statuses: view.statuses })),
    ...(draft.hasForm
      ? {
          form: {
            ...(draft.formTitle.trim() === '' ? {} : { title: draft.formTitle }),
            ...(draft.formInstructions.trim() === '' ? {} : { instructions: draft.formInstructions }),
            fields: onForm.map((field) => ({ uid: field.uid, editable: field.editable })),
            status_editable: draft.statusEditable,
          },
        }
      : {}),
  };
}

/**
 * The service's problems (`fields[2].uid: duplicate uid 'x'`) by the input they name, as the
 * editor's input IDs: `fields.2.uid`, `statuses.1`, `views.0.statuses`, `form.title`. A problem of
 * `form.fields[i]` names the field that is i-th on the form. What names no input is kept under ''.
 */
export function problemsByInput(problems: readonly string[], draft: TypeDraft): Map<string, string[]> {
  const onForm = draft.fields.map((field, index) => ({ field, index })).filter(({ field }) => field.onForm);
  const byInput = new Map<string, string[]>();
  for (const problem of problems) {
    const at = problem.slice(0, Math.max(0, problem.indexOf(': ')));
    const message = problem.slice(at.length + 2) || problem;
    const input = inputOf(at, onForm);
    byInput.set(input, [...(byInput.get(input) ?? []), input === '' ? problem : message]);
  }
  return byInput;
}

function inputOf(at: string, onForm: ReadonlyArray<{ index: number }>): string {
  let match = /^form\.fields\[(\d+)\]/.exec(at);
  if (match) {
    const row = onForm[Number(match[1])];
    return row === undefined ? '' : `fields.${row.index}.onForm`;
  }
  match = /^(fields|views)\[(\d+)\]\.(uid|field_name|type|required|id|name|statuses)/.exec(at);
  if (match) return `${match[1]}.${match[2]}.${match[3]}`;
  match = /^statuses\[(\d+)\]/.exec(at);
  if (match) return `statuses.${match[1]}`;
  if (['name', 'statuses', 'fields', 'views', 'form.title', 'form.instructions', 'form.status_editable'].includes(at)) return at;
  return '';
}

/** What saving the draft changes for the records that already follow the type, in words. */
export function changesFor(stored: RecordType | undefined, draft: TypeDraft): string[] {
  if (!stored) return [];
  const changes: string[] = [];
  const next = new Map(draft.fields.map((field) => [field.uid, field]));
  for (const field of stored.fields) {
    const now = next.get(field.uid);
    if (!now) changes.push(`Field ${field.field_name} (${field.uid}) is removed.`);
    else {
      if (now.type !== field.type) changes.push(`Field ${field.field_name} changes from ${field.type} to ${now.type}.`);
      if (now.required && !field.required) changes.push(`Field ${now.field_name} becomes required.`);
      if (now.field_name !== field.field_name) changes.push(`Field ${field.field_name} is renamed ${now.field_name}.`);
    }
  }
  for (const status of stored.statuses) {
    if (!draft.statuses.includes(status)) changes.push(`Status ${status} is removed.`);
  }
  if (stored.statuses[0] !== undefined && draft.statuses[0] !== stored.statuses[0]) {
    changes.push(`New records start in ${draft.statuses[0] ?? 'new'} instead of ${stored.statuses[0]}.`);
  }
  for (const view of stored.views) {
    if (!draft.views.some((next) => next.id === view.id)) changes.push(`View ${view.name} (${view.id}) is removed.`);
  }
  if ((stored.form === undefined) !== !draft.hasForm) {
    changes.push(draft.hasForm ? 'Form links show only the fields chosen for the form.' : 'Form links show every field and may set the status again.');
  }
  return changes;
}
