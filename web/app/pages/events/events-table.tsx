import type { Event as WrsEvent } from '@wrs/client';
import { DateTimeText } from '../../components/date-time-text';

export interface EventRow {
  readonly key: string;
  readonly event: WrsEvent;
  /** Arrived through the live tail since it was turned on. */
  readonly isNew?: boolean;
}

/** Events as rows: when, what, the keys that identify them, and the whole event as JSON. */
export function EventsTable({ rows, caption }: { rows: readonly EventRow[]; caption: string }) {
  return (
    <div class="table-scroll">
      <table class="events-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">Flow</th>
            <th scope="col">Session</th>
            <th scope="col">Step</th>
            <th scope="col">Decision or text</th>
            <th scope="col">User</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <EventTableRow key={row.key} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EventTableRow({ row: { event, isNew } }: { row: EventRow }) {
  return (
    <tr class={isNew ? 'event-new' : undefined}>
      <td class="event-time" data-label="Time">
        {isNew && <span class="event-badge">New</span>}
        <DateTimeText value={event.created_at} />
      </td>
      <td data-label="Type">
        <code>{event.type}</code>
      </td>
      <td data-label="Flow">{event.flow_key ?? <Empty />}</td>
      <td data-label="Session">{event.flow_session ?? <Empty />}</td>
      <td data-label="Step">{event.step_key ?? <Empty />}</td>
      <td data-label="Decision or text">{event.selected_decision ?? event.text ?? <Empty />}</td>
      <td class="mono event-user" data-label="User" title={event.user_id ?? undefined}>
        {event.user_id ? shortId(event.user_id) : <Empty />}
      </td>
      <td data-label="Details">
        <details class="event-details">
          <summary>
            JSON<span class="visually-hidden"> of event {event.id}</span>
          </summary>
          <pre>{JSON.stringify(event, null, 2)}</pre>
        </details>
      </td>
    </tr>
  );
}

function Empty() {
  return (
    <span class="muted">
      <span aria-hidden="true">–</span>
      <span class="visually-hidden">none</span>
    </span>
  );
}

const shortId = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…` : id);
