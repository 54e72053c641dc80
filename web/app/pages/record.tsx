import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { RecordEditorForm } from '../../shared/record-editor';
import { useRecordEditor } from '../../shared/use-record-editor';
import { useConsole } from '../console-context';
import { DeleteRecordPanel } from './record/delete-record-panel';
import { FilesPanel } from './record/files-panel';
import { PdfPanel } from './record/pdf-panel';
import { StepPanel } from './record/step-panel';
import { DEDICATED_STEP_PANELS, loadStepTypes, type StepTypeForm } from './record/step-types';
import { TokensPanel } from './record/tokens-panel';
import { useSessionEnded } from '../components/session-expiry';
import { lastList } from '../components/list-return';
import './record/record-page.css';

/** One record: its fields and status to edit, its form links (record tokens), PDFs to create and download, and deleting it. */
export function RecordPage() {
  const recordId = useRoute().params.id ?? '';
  const { client } = useConsole();
  const sessionEnded = useSessionEnded();
  // Bumped after a PDF is created, so the files list loads again.
  const [filesVersion, setFilesVersion] = useState(0);
  const editor = useRecordEditor({ client, recordId, onUnauthorized: sessionEnded });
  const { clearSavedNotice } = editor;
  const pdfCreated = useCallback(() => {
    clearSavedNotice();
    setFilesVersion((version) => version + 1);
  }, [clearSavedNotice]);
  const back = useMemo(lastList, [recordId]);
  // The step types besides those with a panel of their own (pdf_create), as the service's registry lists them.
  const [otherSteps, setOtherSteps] = useState<StepTypeForm[]>([]);
  useEffect(() => {
    void loadStepTypes().then((types) => setOtherSteps(types.filter((form) => !DEDICATED_STEP_PANELS.has(form.type))));
  }, []);

  return (
    <div class="record-page">
      <p class="record-page-back">
        <a href={back.href}>← {back.label}</a>
      </p>
      <h1>
        Record <span class="mono">{recordId}</span>
      </h1>
      <div class="record-page-grid">
        <section class="card" aria-labelledby="record-fields-heading">
          <h2 id="record-fields-heading">Fields</h2>
          <RecordEditorForm editor={editor} statusEditable />
        </section>
        {editor.version && (
          <div class="record-page-side">
            <TokensPanel recordId={recordId} onAction={clearSavedNotice} />
            <PdfPanel recordId={recordId} onCreated={pdfCreated} />
            {otherSteps.length > 0 && <StepPanel recordId={recordId} types={otherSteps} onRan={pdfCreated} />}
            <FilesPanel recordId={recordId} version={filesVersion} />
            <DeleteRecordPanel version={editor.version} />
          </div>
        )}
      </div>
    </div>
  );
}
