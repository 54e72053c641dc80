import type { RecordType } from '@wrs/client';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { call } from '../../shared/api';
import { ListAnswerStates } from '../components/list-answer-states';
import { CursorPager } from '../components/cursor-pager';
import { rememberList } from '../components/list-return';
import { plainQueryMessage } from '../components/query-words';
import { signOutIfUnauthorized } from '../components/session-expiry';
import { useRequestPerUrl } from '../components/use-request-per-url';
import { useConsole } from '../console-context';
import { unknownFilterMessage } from './records/record-names';
import { RecordsFilterForm } from './records/records-filter-form';
import { TIME_FILTERS, apiQueryOf, consoleRecordsHref, filtersOf } from './records/records-query';
import { RecordsResultsTable } from './records/records-results-table';
import './records/records.css';

const PARAM_LABELS: Record<string, string> = Object.fromEntries(TIME_FILTERS.map((filter) => [filter.name, filter.label]));

/** Every record of the company, filtered as GET /v1/records allows, a cursor page at a time. */
export function RecordsTablePage() {
  const console = useConsole();
  const { url, query, route } = useLocation();
  const [recordTypes, setRecordTypes] = useState<RecordType[]>();
  const request = apiQueryOf(query);
  const filters = filtersOf(query);

  useEffect(() => {
    void call(() => console.client.GET('/v1/record-types')).then((result) => {
      if (!signOutIfUnauthorized(console, result) && result.ok) setRecordTypes(result.data.results);
    });
  }, [console]);
  // A record opened from here leads back to this page, filters and all.
  useEffect(() => rememberList({ href: url, label: 'Records' }), [url]);

  const result = useRequestPerUrl(url, request.ok ? ({ client }) => call(() => client.GET('/v1/records', { params: { query: request.query } })) : undefined);
  const shown = result && !result.ok ? { ...result, problem: { ...result.problem, message: plainQueryMessage(result.problem.message, PARAM_LABELS) } } : result;
  const unknown = result?.ok && result.data.count === 0 && recordTypes ? unknownFilterMessage(filters, recordTypes) : undefined;
  return (
    <div class="records-page">
      <h1>Records</h1>
      <RecordsFilterForm key={url} initial={filters} recordTypes={recordTypes ?? []} onApply={(params) => route(consoleRecordsHref(params))} />
      <ListAnswerStates request={request} result={shown} noun="records" />
      {result?.ok && (
        <section aria-label="Results">
          <div class="list-summary">
            <p role="status">
              {unknown ??
                (result.data.count === 0
                  ? 'No records match these filters.'
                  : `${result.data.count} record${result.data.count === 1 ? '' : 's'} on this page.`)}
            </p>
            <CursorPager label="Record pages" basePath="/app/records" prevUrl={result.data.prev} nextUrl={result.data.next} />
          </div>
          {result.data.count > 0 && <RecordsResultsTable records={result.data.results} types={recordTypes ?? []} order={filters.order_by} />}
        </section>
      )}
    </div>
  );
}
