import { useEffect, useState } from 'preact/hooks';
import { call } from '../shared/api';
import { useOperator } from './operator-context';
import { TypeEditor } from './type-editor';
import type { RecordType } from './type-draft';

/** The company's record types: pick one to edit, or start a new one. */
export function RecordTypesScreen() {
  const { client, company, signOut } = useOperator();
  const [types, setTypes] = useState<RecordType[]>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<{ id: string; stored?: RecordType }>();
  const [newId, setNewId] = useState('');

  async function load(select?: string) {
    const result = await call(() => client.GET('/admin/v1/companies/{company}/record-types', { params: { path: { company } } }));
    if (!result.ok) {
      if (result.problem.status === 401) signOut(`The service refused the operator token: ${result.problem.message}`);
      else setError(result.problem.message);
      return;
    }
    setTypes(result.data.results);
    if (select !== undefined) setSelected({ id: select, stored: result.data.results.find((type) => type.id === select) });
  }
  useEffect(() => {
    void load();
  }, []);

  return (
    <div class="operator-columns">
      <section class="card type-list" aria-labelledby="types-heading">
        <h1 id="types-heading">Record types of {company}</h1>
        {error && (
          <div class="notice error" role="alert">
            {error}
          </div>
        )}
        {types === undefined && !error && <p class="muted">Loading…</p>}
        {types?.length === 0 && <p class="muted">This company has no record types yet.</p>}
        <ul class="plain-list">
          {types?.map((type) => (
            <li key={type.id}>
              <button type="button" aria-current={selected?.id === type.id ? 'true' : undefined} onClick={() => setSelected({ id: type.id, stored: type })}>
                {type.name} <span class="muted mono">{type.id}</span>
              </button>
            </li>
          ))}
        </ul>
        <form
          class="field"
          onSubmit={(event) => {
            event.preventDefault();
            const id = newId.trim();
            if (id !== '') setSelected({ id, stored: types?.find((type) => type.id === id) });
          }}
        >
          <label for="new-type-id">New record type ID</label>
          <div class="row">
            <input id="new-type-id" value={newId} autocomplete="off" onInput={(event) => setNewId(event.currentTarget.value)} />
            <button type="submit" disabled={newId.trim() === ''}>
              Start
            </button>
          </div>
        </form>
      </section>
      {selected && <TypeEditor key={selected.id} typeId={selected.id} stored={selected.stored} onSaved={(id) => load(id)} />}
    </div>
  );
}
