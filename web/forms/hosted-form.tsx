import { useMemo, useState } from 'preact/hooks';
import { apiClient } from '../shared/api';
import { RecordEditorForm } from '../shared/record-editor';
import { useRecordEditor } from '../shared/use-record-editor';
import { formLinkOf, hasPassed, takeTokenFromAddress, type FormLink } from './form-token';
import { LinkProblem, type LinkRefusal } from './link-problem';
import './hosted-form.css';

/** The hosted record form: whoever holds a record token's link may update that one record. */
export function HostedForm() {
  const [link] = useState<FormLink>(() => formLinkOf(takeTokenFromAddress()));
  return (
    <main class="hosted-form" id="main">
      <h1>Update a record</h1>
      {link.kind === 'valid' ? <LinkedRecord {...link} /> : <LinkProblem refusal={link} />}
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
  return (
    <>
      {refusal && <LinkProblem refusal={refusal} keepsValues={!!editor.version} />}
      {!(refusal && !editor.version) && <RecordEditorForm editor={editor} statusEditable={false} saveDisabled={!!refusal} />}
    </>
  );
}
