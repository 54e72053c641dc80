import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { statusLabel } from '../../../shared/status-label';

interface StatusDropZoneProps {
  viewId: string;
  viewName: string;
  status: string;
  count: number;
  /** False for a status the type no longer lists: its records are shown, nothing can be dropped. */
  droppable: boolean;
  dragging: boolean;
  onDropRecord: (recordId: string, status: string) => void;
  children: ComponentChildren;
}

/** The cards of one status within a view's column; dropping a card here gives it that status. */
export function StatusDropZone({ viewId, viewName, status, count, droppable, dragging, onDropRecord, children }: StatusDropZoneProps) {
  const [over, setOver] = useState(false);
  const classes = ['status-zone', droppable && dragging ? 'drop-ready' : '', over ? 'drop-over' : ''].filter(Boolean).join(' ');
  const headingId = `zone-${viewId}-${status}`.replace(/[^A-Za-z0-9_-]/g, '-');
  return (
    <section
      class={classes}
      aria-labelledby={headingId}
      data-status={status}
      onDragOver={(event) => {
        if (!droppable) return;
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={(event) => {
        const next = event.relatedTarget;
        if (!(next instanceof Node) || !event.currentTarget.contains(next)) setOver(false);
      }}
      onDrop={(event) => {
        if (!droppable) return;
        event.preventDefault();
        setOver(false);
        const recordId = event.dataTransfer?.getData('text/plain');
        if (recordId) onDropRecord(recordId, status);
      }}
    >
      <h3 id={headingId} class="status-zone-title">
        {statusLabel(status)} <span class="muted">({count})</span>
        <span class="visually-hidden"> in {viewName}</span>
      </h3>
      {count === 0 ? (
        <p class="status-zone-empty muted">{droppable ? 'No records. Drop a card here.' : 'No records.'}</p>
      ) : (
        <div class="status-zone-cards">{children}</div>
      )}
    </section>
  );
}
