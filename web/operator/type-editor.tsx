import { useMemo, useState } from 'preact/hooks';
import { NETWORK_PROBLEM } from '../shared/problems';
import { FormSection } from './form-section';
import { useOperator } from './operator-context';
import { ProblemText, problemProps } from './problem-text';
import { RecordsAffected } from './records-affected';
import { FieldsTable, StatusesList, ViewsList } from './type-editor-parts';
import { bodyOf, draftOf, emptyDraft, problemsByInput, type RecordType, type TypeDraft } from './type-draft';

interface SaveOutcome {
  kind: 'saved' | 'refused';
  message: string;
  problems: string[];
}

/** Edits one record type and saves it through the operator API, which checks it and names every problem. */
export function TypeEditor({ typeId, stored: initial, onSaved }: { typeId: string; stored: RecordType | undefined; onSaved: (id: string) => void }) {
  const { client, company, signOut } = useOperator();
  const [stored, setStored] = useState(initial);
  const [draft, setDraft] = useState<TypeDraft>(() => (initial ? draftOf(initial) : emptyDraft(typeId)));
  const [outcome, setOutcome] = useState<SaveOutcome>();
  const [busy, setBusy] = useState(false);
  const problems = useMemo(() => problemsByInput(outcome?.kind === 'refused' ? outcome.problems : [], draft), [outcome, draft]);

  const change = (next: Partial<TypeDraft>) => {
    setDraft((old) => ({ ...old, ...next }));
    if (outcome?.kind === 'saved') setOutcome(undefined);
  };

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const { data, error, response } = await client.PUT('/admin/v1/companies/{company}/record-types/{typeId}', {
        params: { path: { company, typeId } },
        body: bodyOf(draft),
      });
      if (data) {
        setStored(data);
        setDraft(draftOf(data));
        setOutcome({ kind: 'saved', message: `Saved: ${data.name} is at version ${data.version}.`, problems: [] });
        onSaved(typeId);
      } else if (response.status === 401) {
        signOut('The service refused the operator token.');
      } else {
        const body = (error ?? {}) as { message?: string; problems?: unknown };
        const listed = Array.isArray(body.problems) ? body.problems.filter((p): p is string => typeof p === 'string') : [];
        setOutcome({ kind: 'refused', message: body.message ?? `The service answered ${response.status}.`, problems: listed });
      }
    } catch {
      setOutcome({ kind: 'refused', message: NETWORK_PROBLEM.message, problems: [] });
    } finally {
      setBusy(false);
    }
  }

  const unplaced = problems.get('') ?? [];
  return (
    <form class="card type-editor stack" onSubmit={save} noValidate aria-labelledby="type-heading">
      <h2 id="type-heading">
        {stored ? `Edit ${stored.name}` : 'New record type'} <span class="muted mono">{typeId}</span>
        {stored && <span class="muted"> (version {stored.version})</span>}
      </h2>
      <div class="field">
        <label for="name">Name</label>
        <input id="name" value={draft.name} onInput={(e) => change({ name: e.currentTarget.value })} {...problemProps('name', problems)} />
        <ProblemText id="name-error" problems={problems.get('name')} />
      </div>
      <FieldsTable draft={draft} problems={problems} change={change} />
      <StatusesList draft={draft} problems={problems} change={change} />
      <ViewsList draft={draft} problems={problems} change={change} />
      <FormSection draft={draft} problems={problems} change={change} />
      <RecordsAffected typeId={typeId} stored={stored} draft={draft} version={stored?.version ?? 0} />
      {outcome?.kind === 'refused' && (
        <div class="notice error" role="alert">
          <p>
            <strong>Not saved.</strong>{' '}
            {outcome.problems.length > 0 ? 'The service found these problems; each is also shown beside its input.' : outcome.message}
          </p>
          {outcome.problems.length > 0 && (
            <ul>
              {outcome.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          {unplaced.length > 0 && <p class="visually-hidden">{unplaced.join(' ')}</p>}
        </div>
      )}
      {outcome?.kind === 'saved' && (
        <div class="notice success" role="status">
          {outcome.message}
        </div>
      )}
      <div class="row">
        <button class="primary" type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save record type'}
        </button>
      </div>
    </form>
  );
}
