import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { WrsClient } from '@wrs/client';
import { call } from './api';
import { FIELD_NOT_IN_TYPE, type ApiProblem } from './problems';
import { draftOf, hasEdits, planPatch, rebaseDraft, type Draft, type InputValue } from './record-values';
import { loadRecordVersion, type RecordVersion } from './record-version';

/** What the editor says above the form after a save or a reload. */
export type EditorNotice =
  | { kind: 'saved' }
  | { kind: 'nothing-changed' }
  | { kind: 'local-errors' }
  | { kind: 'conflict' }
  | { kind: 'type-changed' }
  | { kind: 'reloaded' }
  | { kind: 'problem'; problem: ApiProblem };

export interface RecordEditor {
  /** The version being edited; undefined until the first load answers. */
  version: RecordVersion | undefined;
  /** Why the record could not be loaded at all. */
  loadProblem: ApiProblem | undefined;
  /** The values on screen (the version's values with the user's edits). */
  draft: Draft | undefined;
  errors: Record<string, string>;
  notice: EditorNotice | undefined;
  busy: boolean;
  dirty: boolean;
  setField(uid: string, value: InputValue): void;
  setStatus(status: string): void;
  save(): Promise<void>;
  /** Loads the record again; the user's unsaved edits stay on top of the new version. */
  reload(): Promise<void>;
  /** Something else happened on the page: "Saved." (or "Nothing to save") no longer describes it. */
  clearSavedNotice(): void;
}

interface EditorOptions {
  client: WrsClient;
  recordId: string;
  /** The service refused the credential (401): expired or revoked. */
  onUnauthorized(problem: ApiProblem): void;
  /** Called after every successful save with the record as it now is. */
  onSaved?(version: RecordVersion): void;
}

/**
 * Edits one record: loads it with its type and ETag, saves only what changed with If-Match, and
 * never drops what the user typed, whatever the service or the network answers.
 */
export function useRecordEditor({ client, recordId, onUnauthorized, onSaved }: EditorOptions): RecordEditor {
  const [version, setVersion] = useState<RecordVersion>();
  const [loadProblem, setLoadProblem] = useState<ApiProblem>();
  const [draft, setDraft] = useState<Draft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<EditorNotice>();
  const [busy, setBusy] = useState(false);
  // The latest values, for async work that finishes after more typing.
  const latest = useRef({ version, draft });
  latest.current = { version, draft };
  const callbacks = useRef({ onUnauthorized, onSaved });
  callbacks.current = { onUnauthorized, onSaved };

  const fail = useCallback((problem: ApiProblem) => {
    if (problem.status === 401) {
      setNotice(undefined);
      callbacks.current.onUnauthorized(problem);
    } else setNotice({ kind: 'problem', problem });
  }, []);

  const reload = useCallback(async () => {
    setBusy(true);
    const result = await loadRecordVersion(client, recordId);
    setBusy(false);
    if (!result.ok) {
      if (!latest.current.version) {
        if (result.problem.status === 401) callbacks.current.onUnauthorized(result.problem);
        else setLoadProblem(result.problem);
      } else fail(result.problem);
      return;
    }
    const next = result.data;
    const nextBase = next.type ? draftOf(next.record, next.type) : undefined;
    const { version: previous, draft: current } = latest.current;
    const previousBase = previous?.type ? draftOf(previous.record, previous.type) : undefined;
    setDraft(nextBase && current && previousBase ? rebaseDraft(previousBase, current, nextBase) : nextBase);
    setVersion(next);
    setLoadProblem(undefined);
    setErrors({});
    setNotice(previous ? { kind: 'reloaded' } : undefined);
  }, [client, recordId, fail]);

  useEffect(() => {
    setVersion(undefined);
    setDraft(undefined);
    latest.current = { version: undefined, draft: undefined };
    void reload();
  }, [reload]);

  const save = useCallback(async () => {
    const { version: loaded, draft: submitted } = latest.current;
    if (!loaded?.type || !submitted) return;
    const base = draftOf(loaded.record, loaded.type);
    const plan = planPatch(loaded.type, base, submitted);
    setErrors(plan.errors);
    if (Object.keys(plan.errors).length > 0) return setNotice({ kind: 'local-errors' });
    if (Object.keys(plan.body).length === 0) return setNotice({ kind: 'nothing-changed' });
    setBusy(true);
    setNotice(undefined);
    const result = await call(() =>
      client.PATCH('/v1/records/{record}', {
        params: { path: { record: recordId }, header: loaded.etag ? { 'if-match': loaded.etag } : {} },
        body: plan.body,
      }),
    );
    setBusy(false);
    if (!result.ok) {
      const { problem } = result;
      setErrors(problem.fields);
      if (problem.status === 412) return setNotice({ kind: 'conflict' });
      if (problem.status === 400 && invalidFieldIn(problem)) {
        return setNotice({ kind: 'type-changed' });
      }
      return fail(problem);
    }
    const saved: RecordVersion = { record: result.data, type: loaded.type, etag: result.response.headers.get('etag') ?? undefined };
    // Anything typed while the request was under way stays.
    setDraft((current) => rebaseDraft(submitted, current ?? submitted, draftOf(saved.record, loaded.type!)));
    setVersion(saved);
    setNotice({ kind: 'saved' });
    callbacks.current.onSaved?.(saved);
  }, [client, recordId, fail]);

  const clearSavedNotice = useCallback(
    () => setNotice((current) => (current?.kind === 'saved' || current?.kind === 'nothing-changed' ? undefined : current)),
    [],
  );
  const setField = useCallback((uid: string, value: InputValue) => {
    setDraft((current) => current && { ...current, fields: { ...current.fields, [uid]: value } });
    setErrors((current) => withoutKey(current, uid));
    clearSavedNotice();
  }, []);
  const setStatus = useCallback((status: string) => {
    setDraft((current) => current && { ...current, status });
    clearSavedNotice();
  }, []);

  const base = version?.type ? draftOf(version.record, version.type) : undefined;
  return {
    version,
    loadProblem,
    draft,
    errors,
    notice,
    busy,
    dirty: !!base && !!draft && hasEdits(base, draft),
    setField,
    setStatus,
    save,
    reload,
    clearSavedNotice,
  };
}

const invalidFieldIn = (problem: ApiProblem) => Object.values(problem.fields).includes(FIELD_NOT_IN_TYPE);

function withoutKey(errors: Record<string, string>, key: string): Record<string, string> {
  if (!(key in errors)) return errors;
  const { [key]: _removed, ...rest } = errors;
  return rest;
}
