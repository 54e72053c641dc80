import { ProblemText, problemProps } from './problem-text';
import type { TypeDraft } from './type-draft';

/** The type's form: what a record token (a form link) sees and may change. */
export function FormSection({
  draft,
  problems,
  change,
}: {
  draft: TypeDraft;
  problems: ReadonlyMap<string, readonly string[]>;
  change: (next: Partial<TypeDraft>) => void;
}) {
  return (
    <fieldset>
      <legend>Form links</legend>
      <div class="field checkbox">
        <input
          type="checkbox"
          id="form-enabled"
          checked={draft.hasForm}
          onChange={(e) => change({ hasForm: e.currentTarget.checked, fields: draft.fields.map((field) => ({ ...field, onForm: e.currentTarget.checked })) })}
        />
        <label for="form-enabled">Form links show only the fields chosen in the table above</label>
        <span class="hint">Without this, a form link shows every field and may set the status.</span>
      </div>
      {draft.hasForm && (
        <>
          <div class="field">
            <label for="form.title">Form title</label>
            <input
              id="form.title"
              value={draft.formTitle}
              onInput={(e) => change({ formTitle: e.currentTarget.value })}
              {...problemProps('form.title', problems)}
            />
            <ProblemText id="form.title-error" problems={problems.get('form.title')} />
          </div>
          <div class="field">
            <label for="form.instructions">Instructions</label>
            <textarea
              id="form.instructions"
              value={draft.formInstructions}
              onInput={(e) => change({ formInstructions: e.currentTarget.value })}
              {...problemProps('form.instructions', problems)}
            />
            <ProblemText id="form.instructions-error" problems={problems.get('form.instructions')} />
          </div>
          <div class="field checkbox">
            <input
              type="checkbox"
              id="form.status_editable"
              checked={draft.statusEditable}
              onChange={(e) => change({ statusEditable: e.currentTarget.checked })}
            />
            <label for="form.status_editable">A form link may set the status</label>
          </div>
        </>
      )}
    </fieldset>
  );
}
