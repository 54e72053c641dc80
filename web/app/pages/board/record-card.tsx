import { useEffect, useRef } from 'preact/hooks';
import { fieldValueText } from '../../components/field-value-text';
import { StatusBadge } from '../../components/status-badge';
import { statusLabel } from '../../../shared/status-label';
import type { BoardRecord } from './board-types';

interface RecordCardProps {
  record: BoardRecord;
  /** The view whose column shows the card: a record in two views has a card in each, each with its own IDs. */
  viewId: string;
  fieldNames: string[];
  /** Every status the record may be moved to (the type's statuses). */
  statuses: string[];
  moving: boolean;
  /** Set after a keyboard move, so focus follows the card to its new place. */
  takeFocus: boolean;
  onFocusTaken: () => void;
  onMove: (record: BoardRecord, status: string) => void;
  onDragStart: (record: BoardRecord) => void;
  onDragEnd: () => void;
}

/** A record on the board: draggable onto a status, or moved with its "Move to…" menu. */
export function RecordCard({ record, viewId, fieldNames, statuses, moving, takeFocus, onFocusTaken, onMove, onDragStart, onDragEnd }: RecordCardProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  const summary = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!takeFocus) return;
    summary.current?.focus();
    onFocusTaken();
  }, [takeFocus, onFocusTaken]);

  const titleId = `card-${viewId}-${record.id}-title`.replace(/[^A-Za-z0-9_-]/g, '-');
  return (
    <article
      class={moving ? 'record-card moving' : 'record-card'}
      aria-labelledby={titleId}
      aria-busy={moving ? 'true' : undefined}
      draggable={!moving}
      data-record-id={record.id}
      onDragStart={(event) => {
        event.dataTransfer?.setData('text/plain', record.id);
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
        onDragStart(record);
      }}
      onDragEnd={onDragEnd}
    >
      <div class="record-card-head">
        <a id={titleId} href={`/app/records/${encodeURIComponent(record.id)}`} draggable={false} class="mono">
          {record.id}
        </a>
        <StatusBadge status={record.status} />
      </div>
      <dl class="record-card-fields">
        {fieldNames.map((name) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{fieldValueText(record.fields?.[name])}</dd>
          </div>
        ))}
      </dl>
      <details class="move-menu" ref={menu}>
        <summary ref={summary}>
          {moving ? 'Moving…' : 'Move to…'}
          <span class="visually-hidden"> (record {record.id})</span>
        </summary>
        <ul>
          {statuses
            .filter((status) => status !== record.status)
            .map((status) => (
              <li key={status}>
                <button
                  type="button"
                  disabled={moving}
                  onClick={() => {
                    if (menu.current) menu.current.open = false;
                    onMove(record, status);
                  }}
                >
                  {statusLabel(status)}
                </button>
              </li>
            ))}
        </ul>
      </details>
    </article>
  );
}
