import { useEffect, useState } from 'preact/hooks';
import type { StoredFile } from '@wrs/client';
import { call } from '../../../shared/api';
import { useConsole } from '../../console-context';
import { downloadFile } from './download-file';
import { formatBytes } from './format';
import { DateTimeText } from '../../components/date-time-text';
import { signedOutOnUnauthorized, useSessionEnded } from '../../components/session-expiry';

/** The record's PDFs, newest first, each downloadable with the session's bearer. */
export function FilesPanel({ recordId, version }: { recordId: string; version: number }) {
  const { client, session } = useConsole();
  const sessionEnded = useSessionEnded();
  const [files, setFiles] = useState<StoredFile[]>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    void call(() => client.GET('/v1/records/{record}/files', { params: { path: { record: recordId } }, cache: 'no-store' })).then((result) => {
      if (result.ok) setFiles([...result.data.results].sort((a, b) => b.created_at.localeCompare(a.created_at)));
      else if (!signedOutOnUnauthorized(result.problem, sessionEnded)) setError(`The files could not be listed: ${result.problem.message}`);
    });
  }, [client, recordId, sessionEnded, version]);

  async function download(file: StoredFile) {
    setError(undefined);
    const result = await downloadFile(file.download_url, session.token, file.pdf_filename);
    if (result.ok) return;
    if (result.status === 401) return sessionEnded();
    setError(
      result.status === 0
        ? `${file.pdf_filename} could not be downloaded: the service could not be reached.`
        : `${file.pdf_filename} could not be downloaded (the service answered ${result.status}).`,
    );
  }

  return (
    <section class="card" aria-labelledby="files-heading">
      <h2 id="files-heading">Files</h2>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      {!files ? (
        <p class="muted">Loading files…</p>
      ) : files.length === 0 ? (
        <p class="muted">No files yet. Create a PDF above.</p>
      ) : (
        <ul class="file-list">
          {files.map((file) => (
            <li key={file.file_id}>
              <button type="button" class="link-button" onClick={() => void download(file)}>
                {file.pdf_filename}
              </button>
              <span class="muted">
                {formatBytes(file.size_bytes)} · {file.pages} {file.pages === 1 ? 'page' : 'pages'} · <DateTimeText value={file.created_at} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
