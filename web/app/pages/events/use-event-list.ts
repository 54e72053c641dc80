import type { Event as WrsEvent } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { signedOutOnUnauthorized } from '../../components/session-expiry';
import { useConsole } from '../../console-context';
import { eventsQueryOf, type ExplorerState } from './event-filters';
import type { QueryProblem } from './filter-builder';

export type EventList =
  | { state: 'loading' }
  | { state: 'loaded'; events: readonly WrsEvent[] }
  | { state: 'refused'; problem: QueryProblem }
  | { state: 'failed'; message: string };

/** GET /v1/events for the explorer's state; a newer state's answer replaces an older one's. */
export function useEventList(state: ExplorerState): EventList {
  const { client, signOut } = useConsole();
  const [list, setList] = useState<EventList>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    let invalidParams: string[] = [];
    setList({ state: 'loading' });
    void call(async () => {
      const answer = await client.GET('/v1/events', { params: { query: eventsQueryOf(state) } });
      invalidParams = answer.error?.invalid_params ?? [];
      return answer;
    }).then((result) => {
      if (!current) return;
      if (result.ok) setList({ state: 'loaded', events: result.data.results });
      else if (signedOutOnUnauthorized(result.problem, signOut)) return;
      else if (result.problem.status === 400) setList({ state: 'refused', problem: { message: result.problem.message, params: invalidParams } });
      else setList({ state: 'failed', message: result.problem.message });
    });
    return () => {
      current = false;
    };
  }, [state, client, signOut]);

  return list;
}
