import type { ChecksListResponse } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { call, type ApiResult } from '../../shared/api';
import { ApiProblemNotice } from '../components/api-problem-notice';
import { CursorPager } from '../components/cursor-pager';
import { signOutIfUnauthorized } from '../components/session-expiry';
import { useConsole } from '../console-context';
import { ChecksFilterForm } from './checks/checks-filter-form';
import { checkFiltersOf, checksApiQueryOf, consoleChecksHref } from './checks/checks-query';
import { ChecksResultsTable } from './checks/checks-results-table';
import './checks/checks.css';

/** The company's mailed checks (GET /v1/checks), filtered and paged as the URL says. */
export function ChecksPage() {
  const console = useConsole();
  const { url, query, route } = useLocation();
  const [answer, setAnswer] = useState<{ url: string; result: ApiResult<ChecksListResponse> }>();
  const request = checksApiQueryOf(query);

  useEffect(() => {
    if (!request.ok) return;
    let current = true;
    void call(() => console.client.GET('/v1/checks', { params: { query: request.query } })).then((result) => {
      if (current && !signOutIfUnauthorized(console, result)) setAnswer({ url, result });
    });
    return () => {
      current = false;
    };
    // The URL is the whole input of the request.
  }, [console, url]);

  const result = answer?.url === url ? answer.result : undefined;
  return (
    <div class="checks-page">
      <h1>Checks</h1>
      <ChecksFilterForm key={url} initial={checkFiltersOf(query)} onApply={(params) => route(consoleChecksHref(params))} />
      {!request.ok && (
        <p class="notice error" role="alert">
          {request.message}
        </p>
      )}
      {request.ok && !result && (
        <p class="muted" aria-busy="true">
          Loading checks…
        </p>
      )}
      {result && !result.ok && <ApiProblemNotice title="The checks could not be listed." problem={result.problem} />}
      {result?.ok && (
        <section aria-label="Results">
          <div class="list-summary">
            <p role="status">{result.data.count === 0 ? 'No checks match these filters.' : `${result.data.count} check${result.data.count === 1 ? '' : 's'} on this page.`}</p>
            <CursorPager label="Check pages" basePath="/app/checks" prevUrl={result.data.previous_url} nextUrl={result.data.next_url} />
          </div>
          {result.data.count > 0 && <ChecksResultsTable checks={result.data.results} />}
        </section>
      )}
    </div>
  );
}
