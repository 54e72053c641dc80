import type { Event as WrsEvent } from '@wrs/client';

export interface EventRow {
  readonly key: string;
  readonly event: WrsEvent;
  /** Arrived through the live tail since it was turned on. */
  readonly isNew?: boolean;
}

const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

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
      <td class="event-time">
        {isNew && <span class="event-badge">New</span>}
        <time dateTime={event.created_at}>{TIME_FORMAT.format(new Date(event.created_at))}</time>
      </td>
      <td>
        <code>{event.type}</code>
      </td>
      <td>{event.flow_key ?? <Empty />}</td>
      <td>{event.flow_session ?? <Empty />}</td>
      <td>{event.step_key ?? <Empty />}</td>
      <td>{event.selected_decision ?? event.text ?? <Empty />}</td>
      <td class="mono event-user" title={event.user_id ?? undefined}>
        {event.user_id ? shortId(event.user_id) : <Empty />}
      </td>
      <td>
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
