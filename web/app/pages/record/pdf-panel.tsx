import type { ResponseBody } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { useConsole } from '../../console-context';
import { signedOutOnUnauthorized, useSessionEnded } from '../../components/session-expiry';

type TemplateSummary = ResponseBody<'listTemplates', 200>['results'][number];

/** Templates to pick from, or free text when they could not be listed. */
type TemplateChoice = { kind: 'loading' } | { kind: 'list'; templates: TemplateSummary[] } | { kind: 'free-text'; why: string };

/** Runs the pdf_create step: renders a template with the record into a stored PDF. */
export function PdfPanel({ recordId, onCreated }: { recordId: string; onCreated(): void }) {
  const { client } = useConsole();
  const sessionEnded = useSessionEnded();
  const [choice, setChoice] = useState<TemplateChoice>({ kind: 'loading' });
  const [templateId, setTemplateId] = useState('');
  const [fileName, setFileName] = useState(`${recordId}.pdf`);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<string>();

  useEffect(() => {
    void call(() => client.GET('/v1/templates')).then((result) => {
      if (result.ok) {
        setChoice({ kind: 'list', templates: result.data.results });
        setTemplateId((current) => current || result.data.results[0]?.id || '');
      } else if (!signedOutOnUnauthorized(result.problem, sessionEnded)) {
        setChoice({ kind: 'free-text', why: `The templates could not be listed (${result.problem.message}): type the template ID.` });
      }
    });
  }, [client, sessionEnded]);

  async function create(event: Event) {
    event.preventDefault();
    setError(undefined);
    setCreated(undefined);
    if (!templateId.trim() || !fileName.trim()) return setError('Choose a template and give the file a name.');
    setBusy(true);
    const result = await call(() =>
      client.PUT('/v1/records/{record}/steps', {
        params: { path: { record: recordId } },
        body: { type: 'pdf_create', inputs: { template_id: templateId.trim(), pdf_filename: fileName.trim() } },
      }),
    );
    setBusy(false);
    if (!result.ok) {
      if (signedOutOnUnauthorized(result.problem, sessionEnded)) return;
      return setError(
        result.problem.code === 'template_not_found' ? `There is no template "${templateId.trim()}".` : `No PDF was created: ${result.problem.message}`,
      );
    }
    setCreated(`Created ${result.data.details.pdf_filename}.`);
    onCreated();
  }

  return (
    <section class="card" aria-labelledby="pdf-heading">
      <h2 id="pdf-heading">Create a PDF</h2>
      <form onSubmit={create} noValidate>
        {choice.kind === 'loading' ? (
          <div class="field">
            <label for="pdf-template">Template</label>
            {/* A picker from the start: typing an ID here would race the list that is on its way. */}
            <select id="pdf-template" disabled aria-busy="true">
              <option>Loading templates…</option>
            </select>
          </div>
        ) : choice.kind === 'list' && choice.templates.length > 0 ? (
          <div class="field">
            <label for="pdf-template">Template</label>
            <select id="pdf-template" value={templateId} onChange={(event) => setTemplateId(event.currentTarget.value)}>
              {choice.templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.id} ({template.pages} {template.pages === 1 ? 'page' : 'pages'})
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div class="field">
            <label for="pdf-template">Template ID</label>
            {choice.kind === 'free-text' && (
              <span class="hint" id="pdf-template-hint">
                {choice.why}
              </span>
            )}
            {choice.kind === 'list' && (
              <span class="hint" id="pdf-template-hint">
                The company has no templates yet.
              </span>
            )}
            <input
              id="pdf-template"
              type="text"
              value={templateId}
              aria-describedby="pdf-template-hint"
              onInput={(event) => setTemplateId(event.currentTarget.value)}
            />
          </div>
        )}
        <div class="field">
          <label for="pdf-filename">File name</label>
          <input id="pdf-filename" type="text" value={fileName} onInput={(event) => setFileName(event.currentTarget.value)} />
        </div>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create PDF'}
        </button>
      </form>
      <div aria-live="polite">{created && <p class="notice success">{created}</p>}</div>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
