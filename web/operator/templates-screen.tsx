import { useEffect, useState } from 'preact/hooks';
import { call } from '../shared/api';
import { useOperator } from './operator-context';
import { TemplateEditor } from './template-editor';

interface TemplateSummary {
  id: string;
  pages: number;
  updated_at: string;
}

/** The company's PDF templates: pick one to open in pdfme's designer, or start a new one. */
export function TemplatesScreen() {
  const { client, company, signOut } = useOperator();
  const [templates, setTemplates] = useState<TemplateSummary[]>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<{ id: string; isNew: boolean }>();
  const [newId, setNewId] = useState('');

  async function load() {
    const result = await call(() => client.GET('/admin/v1/companies/{company}/templates', { params: { path: { company } } }));
    if (result.ok) setTemplates(result.data.results);
    else if (result.problem.status === 401) signOut(`The service refused the operator token: ${result.problem.message}`);
    else setError(result.problem.message);
  }
  useEffect(() => {
    void load();
  }, []);

  if (open) {
    return (
      <TemplateEditor
        key={open.id}
        templateId={open.id}
        isNew={open.isNew}
        onClose={() => {
          setOpen(undefined);
          void load();
        }}
      />
    );
  }
  return (
    <section class="card" aria-labelledby="templates-heading">
      <h1 id="templates-heading">PDF templates of {company}</h1>
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      {templates === undefined && !error && <p class="muted">Loading…</p>}
      {templates?.length === 0 && <p class="muted">This company has no PDF templates yet.</p>}
      {templates && templates.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Template</th>
              <th scope="col">Pages</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span class="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {templates.map((template) => (
              <tr key={template.id}>
                <td class="mono">{template.id}</td>
                <td>{template.pages}</td>
                <td>{new Date(template.updated_at).toLocaleString()}</td>
                <td>
                  <button type="button" onClick={() => setOpen({ id: template.id, isNew: false })}>
                    Open in the designer<span class="visually-hidden"> {template.id}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        class="field new-template"
        onSubmit={(event) => {
          event.preventDefault();
          const id = newId.trim();
          if (id !== '') setOpen({ id, isNew: !templates?.some((template) => template.id === id) });
        }}
      >
        <label for="new-template-id">New template ID</label>
        <div class="row">
          <input id="new-template-id" value={newId} autocomplete="off" onInput={(event) => setNewId(event.currentTarget.value)} />
          <button type="submit" disabled={newId.trim() === ''}>
            Design
          </button>
        </div>
      </form>
    </section>
  );
}
