import type { Template } from '@pdfme/common';
import type { WrsRecord } from '@wrs/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../shared/api';
import type { MountedViewer } from './designer/pdf-designer';
import { FOREIGN_CHILDREN } from './foreign-children';
import { useOperator } from './operator-context';
import { recordInputs } from './record-inputs';
import type { RecordType } from './type-draft';

/** How long the preview waits after the last change in the designer before it renders again. */
const RENDER_DELAY_MS = 400;

/** The template as it is in the designer, filled with a record the operator picks, redrawn as the design changes. */
export function PreviewPanel({ template }: { template: Template }) {
  const { client, company } = useOperator();
  const [types, setTypes] = useState<RecordType[]>([]);
  const [typeId, setTypeId] = useState('');
  const [records, setRecords] = useState<WrsRecord[]>([]);
  const [recordId, setRecordId] = useState('');
  const [error, setError] = useState<string>();
  const container = useRef<HTMLElement>(null);
  const viewer = useRef<MountedViewer | undefined>(undefined);

  useEffect(() => {
    void call(() => client.GET('/admin/v1/companies/{company}/record-types', { params: { path: { company } } })).then((result) => {
      if (!result.ok) return setError(result.problem.message);
      setTypes(result.data.results);
      if (result.data.results[0]) setTypeId(result.data.results[0].id);
    });
    return () => viewer.current?.destroy();
  }, []);

  useEffect(() => {
    if (typeId === '') return;
    void call(() =>
      client.GET('/admin/v1/companies/{company}/record-types/{typeId}/records', { params: { path: { company, typeId }, query: { limit: 100 } } }),
    ).then((result) => {
      if (!result.ok) return setError(result.problem.message);
      setRecords(result.data.results);
      setRecordId(result.data.results[0]?.id ?? '');
    });
  }, [typeId]);

  const record = records.find((candidate) => candidate.id === recordId);
  useEffect(() => {
    if (!record || !container.current) return;
    const inputs = recordInputs(record);
    const timer = setTimeout(async () => {
      const { mountViewer } = await import('./designer/pdf-designer');
      if (!container.current) return;
      if (viewer.current) viewer.current.show(template, inputs);
      else viewer.current = mountViewer(container.current, template, inputs);
    }, RENDER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [template, record]);

  return (
    <section class="card stack" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Live preview</h2>
      {error && (
        <div class="notice error" role="alert">
          {error}
        </div>
      )}
      <div class="row">
        <div class="field">
          <label for="preview-type">Record type</label>
          <select id="preview-type" value={typeId} onChange={(e) => setTypeId(e.currentTarget.value)}>
            {types.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name} ({type.id})
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="preview-record">Record</label>
          <select id="preview-record" value={recordId} onChange={(e) => setRecordId(e.currentTarget.value)}>
            {records.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.id} ({candidate.status})
              </option>
            ))}
          </select>
        </div>
      </div>
      {records.length === 0 && typeId !== '' && <p class="muted">No record follows this type: the preview needs one.</p>}
      <section class="preview-frame" ref={container} {...FOREIGN_CHILDREN} aria-label={record ? `Preview filled with record ${record.id}` : 'Preview'} />
    </section>
  );
}
