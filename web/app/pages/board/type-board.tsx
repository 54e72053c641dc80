import type { RecordType } from '@wrs/client';
import { useCallback, useState } from 'preact/hooks';
import { ApiProblemNotice } from '../../components/api-problem-notice';
import { SESSION_EXPIRED_MESSAGE } from '../../components/session-expiry';
import { statusLabel } from '../../../shared/status-label';
import { useConsole } from '../../console-context';
import type { ApiProblem } from '../../../shared/problems';
import type { BoardRecord } from './board-types';
import { moveRecord } from './move-record';
import { useBoardColumns } from './use-board-columns';
import { ViewColumn } from './view-column';

type Notice = { kind: 'moved'; text: string } | { kind: 'conflict'; text: string } | { kind: 'failed'; text: string; problem: ApiProblem };

/** The board of one record type: a column per view, a card per record, moves by drag and drop or menu. */
export function TypeBoard({ type }: { type: RecordType }) {
  const console = useConsole();
  const { columns, reload, loadMore } = useBoardColumns(type);
  const [movingId, setMovingId] = useState<string>();
  const [dragged, setDragged] = useState<BoardRecord>();
  const [notice, setNotice] = useState<Notice>();
  const [focusRecordId, setFocusRecordId] = useState<string>();
  const clearFocusRequest = useCallback(() => setFocusRecordId(undefined), []);

  async function move(record: BoardRecord, status: string, byKeyboard: boolean) {
    if (movingId || record.status === status) return;
    setMovingId(record.id);
    setNotice(undefined);
    const outcome = await moveRecord(console.client, record, status);
    if (outcome.kind === 'failed' && outcome.problem.status === 401) {
      console.signOut(SESSION_EXPIRED_MESSAGE);
      return;
    }
    await reload();
    setMovingId(undefined);
    if (outcome.kind === 'moved') {
      setNotice({ kind: 'moved', text: `Moved ${record.id} from ${statusLabel(record.status)} to ${statusLabel(status)}.` });
      if (byKeyboard) setFocusRecordId(record.id);
    } else if (outcome.kind === 'conflict') {
      setNotice({
        kind: 'conflict',
        text: `${record.id} was changed by someone else meanwhile; the board was reloaded. Check the record and move it again if it still needs to.`,
      });
    } else {
      setNotice({ kind: 'failed', text: `${record.id} could not be moved to ${statusLabel(status)}.`, problem: outcome.problem });
    }
  }

  function dropRecord(recordId: string, status: string) {
    const record = dragged?.id === recordId ? dragged : columns?.flatMap((column) => column.records).find((candidate) => candidate.id === recordId);
    setDragged(undefined);
    if (record) void move(record, status, false);
  }

  const firstColumnWith = (recordId: string | undefined) => columns?.findIndex((column) => column.records.some((record) => record.id === recordId)) ?? -1;
  const focusColumn = firstColumnWith(focusRecordId);

  return (
    <div class="type-board">
      <div class="board-announcer" aria-live="polite" role="status">
        {notice?.kind === 'moved' && <p class="notice success">{notice.text}</p>}
      </div>
      <div class="board-alerts" role="alert">
        {notice?.kind === 'conflict' && <p class="notice warning">{notice.text}</p>}
      </div>
      {notice?.kind === 'failed' && <ApiProblemNotice title={notice.text} problem={notice.problem} />}
      {type.views.length === 0 && (
        <p class="notice warning">The record type {type.name} has no views, so the board has no columns. Define views for it through the operator API.</p>
      )}
      {!columns && type.views.length > 0 && (
        <p class="muted" aria-busy="true">
          Loading the board…
        </p>
      )}
      {columns && (
        <div class="board-columns">
          {columns.map((column, index) => (
            <ViewColumn
              key={column.view.id}
              type={type}
              column={column}
              movingId={movingId}
              dragging={dragged !== undefined}
              focusRecordId={index === focusColumn ? focusRecordId : undefined}
              onFocusTaken={clearFocusRequest}
              onMove={(record, status) => void move(record, status, true)}
              onDropRecord={dropRecord}
              onDragStart={setDragged}
              onDragEnd={() => setDragged(undefined)}
              onLoadMore={(c) => void loadMore(c)}
            />
          ))}
        </div>
      )}
    </div>
  );
}
