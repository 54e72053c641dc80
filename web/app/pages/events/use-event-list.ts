import type { Event as WrsEvent } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../../shared/api';
import { plainQueryMessage } from '../../components/query-words';
import { signedOutOnUnauthorized } from '../../components/session-expiry';
import { useConsole } from '../../console-context';
import { FILTER_PARAMETERS, eventsQueryOf, parameterName, type ExplorerState } from './event-filters';
import type { QueryProblem } from './filter-builder';

/** Each filter parameter (with its operator suffix) by its field's label, for the refusal's words. */
const PARAM_LABELS: Record<string, string> = {
  ...Object.fromEntries(
    FILTER_PARAMETERS.flatMap((parameter) => parameter.operators.map((operator) => [parameterName({ name: parameter.name, operator }), parameter.label])),
  ),
  limit: 'Page size',
  page: 'Page',
};

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
      else if (result.problem.status === 400)
        setList({ state: 'refused', problem: { message: plainQueryMessage(result.problem.message, PARAM_LABELS), params: invalidParams } });
      else setList({ state: 'failed', message: result.problem.message });
    });
    return () => {
      current = false;
    };
  }, [state, client, signOut]);

  return list;
}
