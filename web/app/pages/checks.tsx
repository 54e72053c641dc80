import { useLocation } from 'preact-iso';
import { call } from '../../shared/api';
import { ListAnswerStates } from '../components/list-answer-states';
import { CursorPager } from '../components/cursor-pager';
import { useRequestPerUrl } from '../components/use-request-per-url';
import { ChecksFilterForm } from './checks/checks-filter-form';
import { CHECK_PARAM_LABELS, checkFiltersOf, checksApiQueryOf, consoleChecksHref } from './checks/checks-query';
import { plainQueryMessage } from '../components/query-words';
import { ChecksResultsTable } from './checks/checks-results-table';
import './checks/checks.css';

/** The company's mailed checks (GET /v1/checks), filtered and paged as the URL says. */
export function ChecksPage() {
  const { url, query, route } = useLocation();
  const request = checksApiQueryOf(query);
  const result = useRequestPerUrl(url, request.ok ? ({ client }) => call(() => client.GET('/v1/checks', { params: { query: request.query } })) : undefined);
  const shown =
    result && !result.ok ? { ...result, problem: { ...result.problem, message: plainQueryMessage(result.problem.message, CHECK_PARAM_LABELS) } } : result;
  return (
    <div class="checks-page">
      <h1>Checks</h1>
      <ChecksFilterForm key={url} initial={checkFiltersOf(query)} onApply={(params) => route(consoleChecksHref(params))} />
      <ListAnswerStates request={request} result={shown} noun="checks" />
      {result?.ok && (
        <section aria-label="Results">
          <div class="list-summary">
            <p role="status">
              {result.data.count === 0 ? 'No checks match these filters.' : `${result.data.count} check${result.data.count === 1 ? '' : 's'} on this page.`}
            </p>
            <CursorPager label="Check pages" basePath="/app/checks" prevUrl={result.data.previous_url} nextUrl={result.data.next_url} />
          </div>
          {result.data.count > 0 && <ChecksResultsTable checks={result.data.results} />}
        </section>
      )}
    </div>
  );
}
