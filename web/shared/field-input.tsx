import { displayTextOf, readerNumberWriting, readNumber } from './locale-number';
import type { FieldDefinition, InputValue } from './record-values';

interface FieldInputProps {
  field: FieldDefinition;
  value: InputValue;
  error: string | undefined;
  disabled?: boolean;
  /** Shown, not changeable: the form link may not change this field. */
  readOnly?: boolean;
  onChange(value: InputValue): void;
}

/** A DOM id for a field UID (UIDs may hold characters an id should not). */
export const fieldInputId = (uid: string) => `field-${uid.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** One labelled input for a record field, by its type, with its error beside it. */
export function FieldInput({ field, value, error, disabled, readOnly, onChange }: FieldInputProps) {
  const id = fieldInputId(field.uid);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const saved = field.type === 'number' && !readOnly ? savedNumberText(value) : undefined;
  const describedBy = [error ? errorId : undefined, saved ? hintId : undefined].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.uid,
    // A checkbox cannot be read-only, so a read-only one is disabled.
    disabled: disabled || (readOnly && field.type === 'boolean'),
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': describedBy || undefined,
  };
  const label = (
    <label for={id}>
      {field.field_name}
      {readOnly && <span class="muted"> (cannot be changed here)</span>}
      {field.required && !readOnly && (
        <span class="required-mark">
          <span aria-hidden="true"> *</span>
          <span class="visually-hidden"> (required)</span>
        </span>
      )}
    </label>
  );
  const message = error && (
    <span class="error" id={errorId}>
      {error}
    </span>
  );

  if (field.type === 'boolean') {
    return (
      <div class="field checkbox">
        <input {...common} type="checkbox" checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />
        {label}
        {message}
      </div>
    );
  }
  const textProps = {
    ...common,
    readOnly,
    autoComplete: 'off',
    required: field.required && !readOnly,
    'aria-required': field.required && !readOnly ? ('true' as const) : undefined,
    value: typeof value === 'string' ? value : '',
    onInput: (event: { currentTarget: HTMLInputElement }) => onChange(event.currentTarget.value),
  };
  return (
    <div class="field">
      {label}
      {field.type === 'date' ? (
        <input {...textProps} type="date" />
      ) : (
        // A number is typed as text so that what the person typed stays visible and can be checked here.
        <input {...textProps} type="text" inputMode={field.type === 'number' ? 'decimal' : undefined} />
      )}
      {saved && (
        <span class="hint" id={hintId}>
          Will be saved as {saved}
        </span>
      )}
      {message}
    </div>
  );
}

/** A typed number as it will be saved, written the reader's way with groups; undefined while it is no number. */
function savedNumberText(value: InputValue): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const writing = readerNumberWriting();
  const number = readNumber(value, writing);
  return number === undefined ? undefined : displayTextOf(number, writing);
}
