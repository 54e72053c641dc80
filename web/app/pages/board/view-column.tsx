import type { RecordType } from '@wrs/client';
import { ApiProblemNotice } from '../../components/api-problem-notice';
import { cardFieldNames, statusesOfView, type BoardRecord } from './board-types';
import { RecordCard } from './record-card';
import { StatusDropZone } from './status-drop-zone';
import type { BoardColumn } from './use-board-columns';

interface ViewColumnProps {
  type: RecordType;
  column: BoardColumn;
  movingId: string | undefined;
  dragging: boolean;
  focusRecordId: string | undefined;
  onFocusTaken: () => void;
  onMove: (record: BoardRecord, status: string) => void;
  onDropRecord: (recordId: string, status: string) => void;
  onDragStart: (record: BoardRecord) => void;
  onDragEnd: () => void;
  onLoadMore: (column: BoardColumn) => void;
}

/** One view of the type: its records grouped by status, one drop zone per status of the view. */
export function ViewColumn({
  type,
  column,
  movingId,
  dragging,
  focusRecordId,
  onFocusTaken,
  onMove,
  onDropRecord,
  onDragStart,
  onDragEnd,
  onLoadMore,
}: ViewColumnProps) {
  const { view, records } = column;
  const viewStatuses = statusesOfView(type, view);
  // A record whose status the type no longer lists still shows, in a zone nothing can be dropped on.
  const strayStatuses = [...new Set(records.map((record) => record.status).filter((status) => !viewStatuses.includes(status)))];
  const fieldNames = cardFieldNames(type);
  const headingId = `column-${view.id}`.replace(/[^A-Za-z0-9_-]/g, '-');
  return (
    <section class="view-column" aria-labelledby={headingId} data-view-id={view.id}>
      <h2 id={headingId} class="view-column-title">
        {view.name}{' '}
        <span class="muted">
          ({records.length}
          {column.nextCursor ? '+' : ''})
        </span>
      </h2>
      {column.problem && <ApiProblemNotice title={`The records of ${view.name} could not be loaded.`} problem={column.problem} />}
      {[...viewStatuses, ...strayStatuses].map((status) => {
        const inZone = records.filter((record) => record.status === status);
        return (
          <StatusDropZone
            key={status}
            viewId={view.id}
            viewName={view.name}
            status={status}
            count={inZone.length}
            droppable={type.statuses.includes(status)}
            dragging={dragging}
            onDropRecord={onDropRecord}
          >
            {inZone.map((record) => (
              <RecordCard
                key={record.id}
                record={record}
                viewId={view.id}
                fieldNames={fieldNames}
                statuses={type.statuses}
                moving={movingId === record.id}
                takeFocus={focusRecordId === record.id}
                onFocusTaken={onFocusTaken}
                onMove={onMove}
                onDragStart={onDragStart}
                onDragEnd={onDragEnd}
              />
            ))}
          </StatusDropZone>
        );
      })}
      {column.nextCursor && (
        <button type="button" class="load-more" disabled={column.loadingMore} onClick={() => onLoadMore(column)}>
          {column.loadingMore ? 'Loading…' : `Load more of ${view.name}`}
        </button>
      )}
    </section>
  );
}
