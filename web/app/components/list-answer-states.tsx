import type { ApiResult } from '../../shared/api';
import { ApiProblemNotice } from './api-problem-notice';

/**
 * What a list page shows before it has rows: the filters in the address cannot make a request,
 * the answer is on its way, or the service refused the request. Nothing once the list arrived.
 */
export function ListAnswerStates({
  request,
  result,
  noun,
}: {
  request: { ok: true } | { ok: false; message: string };
  result: ApiResult<unknown> | undefined;
  /** The plural the messages name, e.g. "checks". */
  noun: string;
}) {
  if (!request.ok) {
    return (
      <p class="notice error" role="alert">
        {request.message}
      </p>
    );
  }
  if (!result) {
    return (
      <p class="muted" aria-busy="true">
        Loading {noun}…
      </p>
    );
  }
  return result.ok ? null : <ApiProblemNotice title={`The ${noun} could not be listed.`} problem={result.problem} />;
}
