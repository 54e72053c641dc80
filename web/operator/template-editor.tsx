import type { Template } from '@pdfme/common';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../shared/api';
import { NETWORK_PROBLEM } from '../shared/problems';
import type { MountedDesigner } from './designer/pdf-designer';
import { FOREIGN_CHILDREN } from './foreign-children';
import { useOperator } from './operator-context';
import { PreviewPanel } from './preview-panel';

/** A new template's start: an A4 page with the record's ID as its heading. */
const NEW_TEMPLATE = {
  basePdf: { width: 210, height: 297, padding: [10, 10, 10, 10] },
  schemas: [[{ name: 'id', type: 'text', content: 'Record ID', position: { x: 20, y: 20 }, width: 170, height: 12, fontSize: 18 }]],
} as unknown as Template;

/** One template in pdfme's designer (its own bundle, loaded here), a live preview beside it, saved through the operator API. */
export function TemplateEditor({ templateId, isNew, onClose }: { templateId: string; isNew: boolean; onClose: () => void }) {
  const { client, company, signOut } = useOperator();
  const container = useRef<HTMLElement>(null);
  const designer = useRef<MountedDesigner | undefined>(undefined);
  const [template, setTemplate] = useState<Template>();
  const [state, setState] = useState<{ kind: 'loading' | 'ready' | 'saving' } | { kind: 'saved' | 'failed'; message: string }>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      let start = NEW_TEMPLATE;
      if (!isNew) {
        const stored = await call(() => client.GET('/admin/v1/companies/{company}/templates/{templateId}', { params: { path: { company, templateId } } }));
        if (!stored.ok) {
          if (stored.problem.status === 401) signOut('The service refused the operator token.');
          else setState({ kind: 'failed', message: stored.problem.message });
          return;
        }
        start = stored.data as unknown as Template;
      }
      const { mountDesigner } = await import('./designer/pdf-designer');
      if (cancelled || !container.current) return;
      designer.current = mountDesigner(container.current, start, setTemplate);
      setTemplate(start);
      setState({ kind: 'ready' });
    })().catch(() => setState({ kind: 'failed', message: 'The designer could not be loaded. Reload the page and try again.' }));
    return () => {
      cancelled = true;
      designer.current?.destroy();
      designer.current = undefined;
    };
  }, []);

  async function save() {
    if (!designer.current) return;
    setState({ kind: 'saving' });
    try {
      const body = designer.current.template() as unknown as Record<string, unknown>;
      const { data, error, response } = await client.PUT('/admin/v1/companies/{company}/templates/{templateId}', {
        params: { path: { company, templateId } },
        body: body as never,
      });
      if (data) setState({ kind: 'saved', message: `Saved: ${data.pages} page${data.pages === 1 ? '' : 's'}, ${data.size_bytes} bytes.` });
      else if (response.status === 401) signOut('The service refused the operator token.');
      else setState({ kind: 'failed', message: (error as { message?: string } | undefined)?.message ?? `The service answered ${response.status}.` });
    } catch {
      setState({ kind: 'failed', message: NETWORK_PROBLEM.message });
    }
  }

  return (
    <section class="stack" aria-labelledby="template-heading">
      <div class="row">
        <h1 id="template-heading">
          Template <span class="mono">{templateId}</span>
          {isNew && <span class="muted"> (new)</span>}
        </h1>
        <button type="button" onClick={onClose}>
          ← Templates
        </button>
        <button type="button" class="primary" disabled={state.kind === 'loading' || state.kind === 'saving' || !designer.current} onClick={save}>
          {state.kind === 'saving' ? 'Saving…' : 'Save template'}
        </button>
      </div>
      <p class="muted">
        A schema's name picks what the record puts there: a field name of its type, or <code>id</code>, <code>status</code>, <code>created_at</code>.
      </p>
      {state.kind === 'loading' && <p role="status">Loading the designer…</p>}
      {state.kind === 'saved' && (
        <div class="notice success" role="status">
          {state.message}
        </div>
      )}
      {state.kind === 'failed' && (
        <div class="notice error" role="alert">
          <strong>Not saved.</strong> {state.message}
        </div>
      )}
      <section class="designer-frame" ref={container} {...FOREIGN_CHILDREN} aria-label="Template designer" />
      {template && <PreviewPanel template={template} />}
    </section>
  );
}
