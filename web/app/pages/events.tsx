import type { EventTypeCount } from '@wrs/client';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../../shared/api';
import { signOutIfUnauthorized } from '../components/session-expiry';
import { useLocation } from 'preact-iso';
import { SESSION_EXPIRED_MESSAGE } from '../components/session-expiry';
import { useConsole } from '../console-context';
import { queryOfState, stateFromQuery, streamTypeOf, type ExplorerState } from './events/event-filters';
import { EventsTable } from './events/events-table';
import { FilterBuilder } from './events/filter-builder';
import { LiveTailPanel } from './events/live-tail';
import { useEventList, type EventList } from './events/use-event-list';
import { useLiveTail } from './events/use-live-tail';
import './events/events.css';

/**
 * The events explorer: GET /v1/events with every filter, order and page it takes, all kept in
 * the address so a reload or a shared link shows the same; and a live tail of new events.
 */
export function EventsPage() {
  const console = useConsole();
  const { session, signOut } = console;
  const [eventTypes, setEventTypes] = useState<readonly EventTypeCount[]>([]);
  useEffect(() => {
    void call(() => console.client.GET('/v1/event-types')).then((result) => {
      if (!signOutIfUnauthorized(console, result) && result.ok) setEventTypes(result.data.results);
    });
  }, [console]);
  const { url, query, route } = useLocation();
  // A new state only when the address changes, so the list is fetched once per address.
  const state = useMemo(() => stateFromQuery(query), [url]);
  const list = useEventList(state);
  const streamType = streamTypeOf(state);
  const tail = useLiveTail(session.token, streamType, () => signOut(SESSION_EXPIRED_MESSAGE));
  const go = (next: ExplorerState) => {
    const search = queryOfState(next).toString();
    route(`/app/events${search ? `?${search}` : ''}`);
  };

  return (
    <div class="events-page stack">
      <h1>Events</h1>
      <FilterBuilder state={state} problem={list.state === 'refused' ? list.problem : undefined} eventTypes={eventTypes} onApply={go} />
      <LiveTailPanel tail={tail} type={streamType} />
      <section class="card event-results" aria-labelledby="results-heading" aria-busy={list.state === 'loading'}>
        <div class="row results-bar">
          <h2 id="results-heading">Results</h2>
          <span role="status" class="muted">
            {summary(list, state)}
          </span>
        </div>
        {list.state === 'failed' && <div class="notice error">{list.message}</div>}
        {list.state === 'loaded' && list.events.length > 0 && (
          <EventsTable rows={list.events.map((event) => ({ key: event.id, event }))} caption={`Events, page ${state.page}`} />
        )}
        <Pager list={list} state={state} onPage={(page) => go({ ...state, page })} />
      </section>
    </div>
  );
}

function summary(list: EventList, state: ExplorerState): string {
  if (list.state === 'loading') return 'Loading events…';
  if (list.state !== 'loaded') return 'No results';
  if (list.events.length === 0) return state.page > 1 ? `No events on page ${state.page}` : 'No event matches these filters';
  const first = (state.page - 1) * state.limit + 1;
  return `Events ${first}–${first + list.events.length - 1}, page ${state.page}`;
}

function Pager({ list, state, onPage }: { list: EventList; state: ExplorerState; onPage: (page: number) => void }) {
  // The API pages by number; a page as long as the limit may have one after it.
  const hasNext = list.state === 'loaded' && list.events.length === state.limit;
  if (state.page === 1 && !hasNext) return null;
  return (
    <nav class="row pager" aria-label="Pages of events">
      <button type="button" disabled={state.page === 1} onClick={() => onPage(state.page - 1)}>
        Previous page
      </button>
      <span>Page {state.page}</span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(state.page + 1)}>
        Next page
      </button>
    </nav>
  );
}
