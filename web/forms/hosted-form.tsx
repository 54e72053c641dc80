import { useEffect, useMemo, useState } from 'preact/hooks';
import { apiClient } from '../shared/api';
import type { ApiProblem } from '../shared/problems';
import { RecordEditorForm } from '../shared/record-editor';
import { useRecordEditor } from '../shared/use-record-editor';
import { formLinkOf, hasPassed, takeTokenFromAddress, type FormLink } from './form-token';
import { LinkProblem, type LinkRefusal } from './link-problem';
import './hosted-form.css';

const DEFAULT_TITLE = 'Update a record';

/**
 * The hosted record form: whoever holds a record token's link may update that one record, as
 * far as the link allows. The service answers the record's type as the link sees it: only its
 * visible fields, a form saying which may change and whether the status may, and the company's
 * display name and support email. Nothing internal (record or type IDs, raw status words) is shown.
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
  const editor = useRecordEditor({ client, recordId, onUnauthorized: (problem) => setRefusal(refusalOf(problem, expiresAt)) });
  const type = editor.version?.type;
  const form = type?.form;
  const company = type?.company;
  const title = form?.title ?? type?.name ?? DEFAULT_TITLE;
  const readOnlyFields = useMemo(() => new Set((form?.fields ?? []).filter((field) => field.editable === false).map((field) => field.uid)), [form]);
  useEffect(() => {
    document.title = company?.display_name ? `${title} · ${company.display_name}` : title;
  }, [title, company?.display_name]);
  return (
    <>
      <h1>
        {company?.display_name && <span class="form-sender">{company.display_name} asks you to complete:</span>} {title}
      </h1>
      {form?.instructions && <p class="form-instructions">{form.instructions}</p>}
      {refusal && <LinkProblem refusal={refusal} keepsValues={!!editor.version} />}
      {!(refusal && !editor.version) && (
        <RecordEditorForm
          editor={editor}
          statusEditable={form?.status_editable === true}
          readOnlyFields={readOnlyFields}
          saveDisabled={!!refusal}
          showIds={false}
        />
      )}
      {company?.support_email && (
        <p class="form-support">
          Questions? Write to <a href={`mailto:${company.support_email}`}>{company.support_email}</a>.
        </p>
      )}
    </>
  );
}

/**
 * Why the service refused the link (401). It answers alike for every refusal but in its message;
 * exp tells an expired link apart, the message a withdrawn one, and anything else (a bad
 * signature, a token it never issued) is a link that is not valid.
 */
function refusalOf(problem: ApiProblem, expiresAt: number | undefined): LinkRefusal {
  if (expiresAt !== undefined && hasPassed(expiresAt)) return { kind: 'expired', expiresAt };
  if (/\brevoked\b/.test(problem.message)) return { kind: 'revoked' };
  return { kind: 'rejected' };
}
