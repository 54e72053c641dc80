import { EventsTable } from './events-table';
import { LIVE_TAIL_LIMIT, type LiveTail, type TailStatus } from './use-live-tail';

/** The live tail's switch, its connection state, and the events that arrived, newest first. */
export function LiveTailPanel({ tail, type }: { tail: LiveTail; type: string | undefined }) {
  return (
    <section class="card live-tail" aria-labelledby="live-tail-heading">
      <div class="row live-tail-bar">
        <h2 id="live-tail-heading">Live tail</h2>
        <button type="button" class={tail.on ? 'primary' : undefined} aria-pressed={tail.on} onClick={() => tail.setOn(!tail.on)}>
          {tail.on ? 'Stop live tail' : 'Start live tail'}
        </button>
        {tail.rows.length > 0 && (
          <button type="button" onClick={tail.clear}>
            Clear
          </button>
        )}
        <span class={`live-status live-status-${tail.status.state}`} role="status">
          {describe(tail.status)}
        </span>
      </div>
      <p class="muted live-tail-scope">
        {type === undefined ? (
          'Follows every new event'
        ) : (
          <>
            Follows new events of type <code>{type}</code>
          </>
        )}
        ; the other filters do not apply to it. The newest {LIVE_TAIL_LIMIT} are kept.
      </p>
      <div aria-live="polite" aria-relevant="additions" class="live-tail-events">
        {tail.rows.length > 0 && <EventsTable rows={tail.rows} caption="Events that arrived through the live tail, newest first" />}
      </div>
    </section>
  );
}

function describe(status: TailStatus): string {
  switch (status.state) {
    case 'off':
      return 'Off';
    case 'connecting':
      return 'Connecting…';
    case 'live':
      return 'Live: waiting for new events';
    case 'reconnecting':
      return `Connection lost; reconnecting in ${status.inSeconds} s`;
    case 'failed':
      return `Stopped: ${status.message}`;
  }
}
