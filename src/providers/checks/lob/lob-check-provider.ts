import { invalidQuery } from '../../../errors/app-error.js';
import { DEFAULT_CHECK_SORT, type Check, type CheckFilters, type TimeRange } from '../../../domain/checks/check.js';
import type { CheckListRequest, CheckPage, CheckProvider } from '../../../domain/checks/check-provider.port.js';
import type { LobClient } from './lob-client.js';

/** Lob returns at most this many items per call. */
export const LOB_PAGE_MAX = 100;

/**
 * Lob's REST API as a check provider. Filters map to Lob's deep-object query form
 * (`date_created[gt]=...`); a `limit` above Lob's 100 is filled by following Lob's own
 * `after` / `before` cursors, which become this service's page positions.
 */
export function createLobCheckProvider(client: LobClient): CheckProvider {
  return {
    name: 'lob',
    async list(_companyId, request): Promise<CheckPage> {
      const forward = request.page?.direction !== 'before';
      let cursor = request.page ? readPosition(request.page.position) : undefined;
      const budget = client.newBudget();
      const results: Check[] = [];
      let next: string | null = null;
      let previous: string | null = null;
      const maxCalls = Math.ceil(request.limit / LOB_PAGE_MAX) + 1;

      for (let call = 0; call < maxCalls && results.length < request.limit; call += 1) {
        const wanted = Math.min(LOB_PAGE_MAX, request.limit - results.length);
        const query = lobQuery(request, wanted);
        if (cursor) query.set(forward ? 'after' : 'before', cursor);
        const page = await client.list('checks', query, budget);
        const items = page.data.slice(0, wanted);
        const pageNext = cursorIn(page.next_url, 'after');
        const pagePrevious = cursorIn(page.previous_url, 'before');
        if (forward) {
          results.push(...items);
          if (call === 0) previous = pagePrevious;
          next = pageNext;
          cursor = pageNext ?? undefined;
        } else {
          results.unshift(...items);
          if (call === 0) next = pageNext;
          previous = pagePrevious;
          cursor = pagePrevious ?? undefined;
        }
        if (!cursor || items.length === 0) break;
      }
      return { results, next, previous };
    },
  };
}

/** The Lob query for one call: filters, sort and how many to return. */
export function lobQuery(request: CheckListRequest, limit: number): URLSearchParams {
  const query = new URLSearchParams({ limit: String(limit) });
  addFilters(query, request.filters);
  const { sort } = request;
  if (sort.field !== DEFAULT_CHECK_SORT.field || sort.direction !== DEFAULT_CHECK_SORT.direction) {
    query.set(`sort_by[${sort.field}]`, sort.direction);
  }
  return query;
}

function addFilters(query: URLSearchParams, filters: CheckFilters): void {
  addRange(query, 'date_created', filters.date_created);
  addRange(query, 'send_date', filters.send_date);
  if (filters.scheduled !== undefined) query.set('scheduled', String(filters.scheduled));
  if (filters.mail_type !== undefined) query.set('mail_type', filters.mail_type);
}

function addRange(query: URLSearchParams, name: string, range: TimeRange | undefined): void {
  if (range?.lower) query.set(`${name}[${range.lower.inclusive ? 'gte' : 'gt'}]`, range.lower.at);
  if (range?.upper) query.set(`${name}[${range.upper.inclusive ? 'lte' : 'lt'}]`, range.upper.at);
}

/** Lob's cursor inside one of its `next_url` / `previous_url` links; only the cursor is kept, never the link. */
function cursorIn(link: string | null, param: 'after' | 'before'): string | null {
  if (!link) return null;
  try {
    return new URL(link, 'https://lob.invalid').searchParams.get(param) || null;
  } catch {
    return null;
  }
}

function readPosition(position: unknown): string {
  if (typeof position !== 'string' || position.length === 0) {
    throw invalidQuery('the page cursor is not valid', ['after', 'before']);
  }
  return position;
}
