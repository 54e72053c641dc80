import { ProblemText, problemProps } from './problem-text';
import { FIELD_TYPES, type FieldDraft, type TypeDraft, type ViewDraft } from './type-draft';

interface PartProps {
  draft: TypeDraft;
  problems: ReadonlyMap<string, readonly string[]>;
  change: (next: Partial<TypeDraft>) => void;
}

const replaced = <T,>(list: readonly T[], index: number, item: T) => list.map((old, i) => (i === index ? item : old));
const removed = <T,>(list: readonly T[], index: number) => list.filter((_, i) => i !== index);

/** One row per field: UID, name, type, required, and (with a form) whether the form shows it and lets it be changed. */
export function FieldsTable({ draft, problems, change }: PartProps) {
  const setField = (index: number, patch: Partial<FieldDraft>) => change({ fields: replaced(draft.fields, index, { ...draft.fields[index]!, ...patch }) });
  const cell = (index: number, key: keyof FieldDraft) => `fields.${index}.${key}`;
  return (
    <fieldset>
      <legend>Fields</legend>
      <ProblemText id="fields-error" problems={problems.get('fields')} />
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">UID</th>
              <th scope="col">Field name</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              {draft.hasForm && <th scope="col">On the form</th>}
              {draft.hasForm && <th scope="col">Editable on the form</th>}
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {draft.fields.map((field, index) => {
              const n = index + 1;
              return (
                <tr key={index}>
                  <td>
                    <input
                      id={cell(index, 'uid')}
                      aria-label={`UID of field ${n}`}
                      value={field.uid}
                      onInput={(e) => setField(index, { uid: e.currentTarget.value })}
                      {...problemProps(cell(index, 'uid'), problems)}
                    />
                    <ProblemText id={`${cell(index, 'uid')}-error`} problems={problems.get(cell(index, 'uid'))} />
                  </td>
                  <td>
                    <input
                      id={cell(index, 'field_name')}
                      aria-label={`Name of field ${n}`}
                      value={field.field_name}
                      onInput={(e) => setField(index, { field_name: e.currentTarget.value })}
                      {...problemProps(cell(index, 'field_name'), problems)}
                    />
                    <ProblemText id={`${cell(index, 'field_name')}-error`} problems={problems.get(cell(index, 'field_name'))} />
                  </td>
                  <td>
                    <select
                      id={cell(index, 'type')}
                      aria-label={`Type of field ${n}`}
                      value={field.type}
                      onChange={(e) => setField(index, { type: e.currentTarget.value })}
                      {...problemProps(cell(index, 'type'), problems)}
                    >
                      {FIELD_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                    <ProblemText id={`${cell(index, 'type')}-error`} problems={problems.get(cell(index, 'type'))} />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      id={cell(index, 'required')}
                      aria-label={`Field ${n} is required`}
                      checked={field.required}
                      onChange={(e) => setField(index, { required: e.currentTarget.checked })}
                    />
                  </td>
                  {draft.hasForm && (
                    <td>
                      <input
                        type="checkbox"
                        id={cell(index, 'onForm')}
                        aria-label={`Field ${n} is on the form`}
                        checked={field.onForm}
                        onChange={(e) => setField(index, { onForm: e.currentTarget.checked })}
                        {...problemProps(cell(index, 'onForm'), problems)}
                      />
                      <ProblemText id={`${cell(index, 'onForm')}-error`} problems={problems.get(cell(index, 'onForm'))} />
                    </td>
                  )}
                  {draft.hasForm && (
                    <td>
                      <input
                        type="checkbox"
                        id={cell(index, 'editable')}
                        aria-label={`Field ${n} may be changed on the form`}
                        checked={field.editable}
                        disabled={!field.onForm}
                        onChange={(e) => setField(index, { editable: e.currentTarget.checked })}
                      />
                    </td>
                  )}
                  <td>
                    <button type="button" onClick={() => change({ fields: removed(draft.fields, index) })}>
                      Remove<span class="visually-hidden"> field {n}</span>
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <button
        type="button"
        onClick={() =>
          change({ fields: [...draft.fields, { uid: '', field_name: '', type: 'string', required: false, onForm: draft.hasForm, editable: true }] })
        }
      >
        Add field
      </button>
    </fieldset>
  );
}

/** The statuses, the first being where new records start. */
export function StatusesList({ draft, problems, change }: PartProps) {
  return (
    <fieldset>
      <legend>Statuses</legend>
      <p class="hint muted">New records start in the first.</p>
      <ProblemText id="statuses-error" problems={problems.get('statuses')} />
      <ol class="plain-list">
        {draft.statuses.map((status, index) => (
          <li key={index} class="row">
            <input
              id={`statuses.${index}`}
              aria-label={`Status ${index + 1}`}
              value={status}
              onInput={(e) => change({ statuses: replaced(draft.statuses, index, e.currentTarget.value) })}
              {...problemProps(`statuses.${index}`, problems)}
            />
            <button type="button" onClick={() => change({ statuses: removed(draft.statuses, index) })}>
              Remove<span class="visually-hidden"> status {index + 1}</span>
            </button>
            <ProblemText id={`statuses.${index}-error`} problems={problems.get(`statuses.${index}`)} />
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => change({ statuses: [...draft.statuses, ''] })}>
        Add status
      </button>
    </fieldset>
  );
}

/** The views: an ID, a name, and the statuses of the records they show (none: every record). */
export function ViewsList({ draft, problems, change }: PartProps) {
  const setView = (index: number, patch: Partial<ViewDraft>) => change({ views: replaced(draft.views, index, { ...draft.views[index]!, ...patch }) });
  return (
    <fieldset>
      <legend>Views</legend>
      <ProblemText id="views-error" problems={problems.get('views')} />
      {draft.views.map((view, index) => {
        const at = (key: string) => `views.${index}.${key}`;
        return (
          <div key={index} class="view-row">
            <div class="row">
              <input
                id={at('id')}
                aria-label={`ID of view ${index + 1}`}
                value={view.id}
                onInput={(e) => setView(index, { id: e.currentTarget.value })}
                {...problemProps(at('id'), problems)}
              />
              <input
                id={at('name')}
                aria-label={`Name of view ${index + 1}`}
                value={view.name}
                onInput={(e) => setView(index, { name: e.currentTarget.value })}
                {...problemProps(at('name'), problems)}
              />
              <button type="button" onClick={() => change({ views: removed(draft.views, index) })}>
                Remove<span class="visually-hidden"> view {index + 1}</span>
              </button>
            </div>
            <ProblemText id={`${at('id')}-error`} problems={problems.get(at('id'))} />
            <ProblemText id={`${at('name')}-error`} problems={problems.get(at('name'))} />
            <fieldset class="row view-statuses">
              <legend class="visually-hidden">{`Statuses of view ${index + 1} (none: every record)`}</legend>
              {[...new Set([...draft.statuses, ...view.statuses])]
                .filter((status) => status !== '')
                .map((status) => (
                  <label key={status} class="checkbox-label">
                    <input
                      type="checkbox"
                      checked={view.statuses.includes(status)}
                      onChange={(e) =>
                        setView(index, { statuses: e.currentTarget.checked ? [...view.statuses, status] : view.statuses.filter((s) => s !== status) })
                      }
                    />{' '}
                    {status}
                  </label>
                ))}
            </fieldset>
            <ProblemText id={`${at('statuses')}-error`} problems={problems.get(at('statuses'))} />
          </div>
        );
      })}
      <button type="button" onClick={() => change({ views: [...draft.views, { id: '', name: '', statuses: [] }] })}>
        Add view
      </button>
    </fieldset>
  );
}
