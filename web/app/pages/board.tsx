import type { RecordType } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { call } from '../../shared/api';
import type { ApiProblem } from '../../shared/problems';
import { ApiProblemNotice } from '../components/api-problem-notice';
import { rememberList } from '../components/list-return';
import { signOutIfUnauthorized } from '../components/session-expiry';
import { useConsole } from '../console-context';
import './board/board.css';
import { TypeBoard } from './board/type-board';

/** The workboard: the chosen custom record type (kept in ?type=) with one column per view. */
export function BoardPage() {
  const console = useConsole();
  const { url, query, route } = useLocation();
  const [types, setTypes] = useState<RecordType[]>();
  const [problem, setProblem] = useState<ApiProblem>();

  useEffect(() => {
    let current = true;
    void call(() => console.client.GET('/v1/record-types')).then((result) => {
      if (!current || signOutIfUnauthorized(console, result)) return;
      if (result.ok) setTypes(result.data.results);
      else setProblem(result.problem);
    });
    return () => {
      current = false;
    };
  }, [console]);

  useEffect(() => rememberList({ href: url, label: 'Board' }), [url]);

  const requested = query.type;
  const chosen = types?.find((type) => type.id === requested) ?? types?.[0];
  return (
    <div class="board-page">
      <div class="board-toolbar">
        <h1>Board</h1>
        {types && types.length > 0 && chosen && (
          <div class="board-type-picker">
            <label for="board-type">Record type</label>
            <select id="board-type" value={chosen.id} onChange={(event) => route(`/app/?type=${encodeURIComponent(event.currentTarget.value)}`)}>
              {types.map((type) => (
                <option key={type.id} value={type.id}>
                  {type.name} ({type.id})
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {problem && <ApiProblemNotice title="The record types could not be loaded." problem={problem} />}
      {!types && !problem && (
        <p class="muted" aria-busy="true">
          Loading record types…
        </p>
      )}
      {types && types.length === 0 && <p class="notice">This company has no custom record types yet, so there is nothing to show on a board.</p>}
      {requested && chosen && chosen.id !== requested && (
        <p class="notice warning">
          There is no record type “{requested}”; showing {chosen.name} instead.
        </p>
      )}
      {chosen && <TypeBoard key={chosen.id} type={chosen} />}
    </div>
  );
}
