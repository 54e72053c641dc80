import type { ApiProblem } from './problems';
import { FieldInput } from './field-input';
import { statusLabel } from './status-label';
import type { EditorNotice, RecordEditor } from './use-record-editor';
import './record-editor.css';

interface RecordEditorFormProps {
  editor: RecordEditor;
  /** The console lets the status change; the hosted form only when the type's form allows it. */
  statusEditable: boolean;
  /** Field UIDs shown read-only (the form link may not change them). */
  readOnlyFields?: ReadonlySet<string>;
  /** Save is off while the page knows saving cannot work (the hosted form's link was refused). */
  saveDisabled?: boolean;
  /** False for people outside the company (the hosted form): no record ID or type ID is shown. Default true. */
  showIds?: boolean;
}

/** The record's id and status, its fields as inputs, Save, and what happened to the last save. */
export function RecordEditorForm({ editor, statusEditable, readOnlyFields, saveDisabled, showIds = true }: RecordEditorFormProps) {
  const { version, draft, errors, notice, busy } = editor;
  if (editor.loadProblem) return <LoadProblem problem={editor.loadProblem} />;
  if (!version) {
    return (
      <p class="muted" role="status">
        Loading the record…
      </p>
    );
  }
  const { record, type } = version;

  async function submit(event: Event) {
    event.preventDefault();
    await editor.save();
  }

  return (
    <div class="record-editor">
      {(showIds || !statusEditable) && (
        <dl class="record-meta">
          {showIds && (
            <>
              <div>
                <dt>Record</dt>
                <dd class="mono">{record.id}</dd>
              </div>
              <div>
                <dt>Type</dt>
                <dd>{type ? type.name : record.record_type}</dd>
              </div>
            </>
          )}
          {!statusEditable && (
            <div>
              <dt>Status</dt>
              <dd>
                <span class="status-badge">{statusLabel(record.status)}</span>
              </dd>
            </div>
          )}
        </dl>
      )}
      <div aria-live="polite">{notice && <NoticeView notice={notice} onReload={() => void editor.reload()} busy={busy} />}</div>
      {!type || !draft ? (
        <p class="notice">{showIds ? `This ${record.record_type} record has no fields to edit here.` : 'There is nothing to fill in here.'}</p>
      ) : (
        <form class="record-form" onSubmit={submit} noValidate aria-label={showIds ? `Fields of record ${record.id}` : 'Your answers'}>
          {statusEditable && (
            <div class="field">
              <label for="record-status">Status</label>
              <select id="record-status" name="status" value={draft.status} onChange={(event) => editor.setStatus(event.currentTarget.value)}>
                {statusesFor(type.statuses, draft.status).map((status) => (
                  <option key={status} value={status}>
                    {statusLabel(status)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {type.fields.map((field) => (
            <FieldInput
              key={field.uid}
              field={field}
              value={draft.fields[field.uid] ?? ''}
              error={errors[field.uid]}
              readOnly={readOnlyFields?.has(field.uid)}
              onChange={(value) => editor.setField(field.uid, value)}
            />
          ))}
          <p class="muted form-legend">
            Fields marked <span aria-hidden="true">*</span>
            <span class="visually-hidden">required</span> are required.
          </p>
          <div class="row">
            <button type="submit" class="primary" disabled={busy || saveDisabled}>
              {busy ? 'Saving…' : 'Save'}
            </button>
            {editor.dirty && <span class="muted">Unsaved changes</span>}
          </div>
        </form>
      )}
    </div>
  );
}

/** The type's statuses, plus the record's own if the type no longer lists it (so the select shows the truth). */
const statusesFor = (statuses: readonly string[], current: string) => (statuses.includes(current) ? statuses : [current, ...statuses]);

function LoadProblem({ problem }: { problem: ApiProblem }) {
  const message =
    problem.status === 404
      ? 'This record was not found: it may have been deleted.'
      : problem.status === 0
        ? 'The service could not be reached, so the record could not be loaded. Check the connection and reload the page.'
        : `The record could not be loaded: ${problem.message}`;
  return (
    <div class="notice error" role="alert">
      <p>{message}</p>
    </div>
  );
}

function NoticeView({ notice, onReload, busy }: { notice: EditorNotice; onReload(): void; busy: boolean }) {
  switch (notice.kind) {
    case 'saved':
      return (
        <div class="notice success" role="status">
          <p>Saved.</p>
        </div>
      );
    case 'nothing-changed':
      return (
        <div class="notice" role="status">
          <p>Nothing to save: no value was changed.</p>
        </div>
      );
    case 'reloaded':
      return (
        <div class="notice" role="status">
          <p>Loaded the latest version of the record. Your unsaved changes are still shown; save them when ready.</p>
        </div>
      );
    case 'local-errors':
      return (
        <div class="notice error" role="alert">
          <p>Some values need attention: see the messages beside the fields. Nothing was sent.</p>
        </div>
      );
    case 'conflict':
      return (
        <div class="notice warning" role="alert">
          <p>The record changed meanwhile: someone saved it after you opened it, so your changes were not saved.</p>
          <p>Reload to get the new version; your unsaved changes are kept on top of it.</p>
          <button type="button" onClick={onReload} disabled={busy}>
            Reload the record
          </button>
        </div>
      );
    case 'type-changed':
      return (
        <div class="notice warning" role="alert">
          <p>The record's type changed since this page was loaded: the fields marked below are no longer part of it, so nothing was saved.</p>
          <p>Your values are still shown. Reload to continue with the current fields; your other changes are kept.</p>
          <button type="button" onClick={onReload} disabled={busy}>
            Reload the record
          </button>
        </div>
      );
    case 'problem':
      return (
        <div class="notice error" role="alert">
          <p>{problemMessage(notice.problem)}</p>
        </div>
      );
  }
}

function problemMessage(problem: ApiProblem): string {
  if (problem.status === 404) return 'This record no longer exists: it was deleted. Your values are still shown but cannot be saved.';
  if (problem.status === 0)
    return 'Your changes were not saved: the service could not be reached. Check the connection and save again; nothing you typed was lost.';
  if (Object.keys(problem.fields).length > 0) return 'The service did not accept some values: see the messages beside the fields.';
  return `Your changes were not saved: ${problem.message}`;
}
