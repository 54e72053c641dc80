import { useMemo, useState } from 'preact/hooks';
import { apiClient } from '../shared/api';
import { RecordEditorForm } from '../shared/record-editor';
import { useRecordEditor } from '../shared/use-record-editor';
import { formLinkOf, hasPassed, takeTokenFromAddress, type FormLink } from './form-token';
import { LinkProblem, type LinkRefusal } from './link-problem';
import './hosted-form.css';

const DEFAULT_TITLE = 'Update a record';

/**
 * The hosted record form: whoever holds a record token's link may update that one record, as
 * far as the link allows. The service answers the record's type as the link sees it: only its
 * visible fields, and a form saying which may change and whether the status may.
 */
export function HostedForm() {
  const [link] = useState<FormLink>(() => formLinkOf(takeTokenFromAddress()));
  return (
    <main class="hosted-form" id="main">
      {link.kind === 'valid' ? (
        <LinkedRecord {...link} />
      ) : (
        <>
          <h1>{DEFAULT_TITLE}</h1>
          <LinkProblem refusal={link} />
        </>
      )}
    </main>
  );
}

function LinkedRecord({ token, recordId, expiresAt }: { token: string; recordId: string; expiresAt: number | undefined }) {
  const client = useMemo(() => apiClient(token), [token]);
  const [refusal, setRefusal] = useState<LinkRefusal>();
  const editor = useRecordEditor({
    client,
    recordId,
    // The service answers 401 alike for an expired and a revoked token; exp tells them apart.
    onUnauthorized: () => setRefusal(expiresAt !== undefined && hasPassed(expiresAt) ? { kind: 'expired', expiresAt } : { kind: 'revoked' }),
  });
  const form = editor.version?.type?.form;
  const readOnlyFields = useMemo(() => new Set((form?.fields ?? []).filter((field) => field.editable === false).map((field) => field.uid)), [form]);
  return (
    <>
      <h1>{form?.title ?? DEFAULT_TITLE}</h1>
      {form?.instructions && <p class="form-instructions">{form.instructions}</p>}
      {refusal && <LinkProblem refusal={refusal} keepsValues={!!editor.version} />}
      {!(refusal && !editor.version) && (
        <RecordEditorForm editor={editor} statusEditable={form?.status_editable === true} readOnlyFields={readOnlyFields} saveDisabled={!!refusal} />
      )}
    </>
  );
}
