import type { operations } from '@wrs/client';
import { TIMESTAMP_EXAMPLE, isTimestampFilter } from '../../components/query-words';

export type ChecksQuery = NonNullable<operations['listChecks']['parameters']['query']>;

export const DATE_OPERATORS = [
  { suffix: '', label: 'on' },
  { suffix: '__gt', label: 'after' },
  { suffix: '__gte', label: 'on or after' },
  { suffix: '__lt', label: 'before' },
  { suffix: '__lte', label: 'on or before' },
] as const;
type DateOperator = (typeof DATE_OPERATORS)[number]['suffix'];

export const MAIL_TYPES = [
  { value: 'usps_first_class', label: 'USPS First Class' },
  { value: 'ups_next_day_air', label: 'UPS Next Day Air' },
] as const;

/** A mail type in words; one the console does not know is shown as the provider gave it. */
export const mailTypeLabel = (value: string) => MAIL_TYPES.find((type) => type.value === value)?.label ?? value;

const DATE_LABELS = { date_created: 'Created', send_date: 'Send date' } as const;
/** Each date parameter (with its suffix) by its input's label, for the refusal's words. */
export const CHECK_PARAM_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(DATE_LABELS).flatMap(([field, label]) => ['', '__gt', '__gte', '__lt', '__lte'].map((suffix) => [`${field}${suffix}`, label])),
);
export const SORTS = [
  { value: '', label: 'Newest first (default)' },
  { value: 'date_created', label: 'Created, oldest first' },
  { value: '-date_created', label: 'Created, newest first' },
  { value: 'send_date', label: 'Send date, earliest first' },
  { value: '-send_date', label: 'Send date, latest first' },
] as const;

/** A date filter of the form: one condition on date_created or send_date. */
export interface DateCondition {
  operator: DateOperator;
  value: string;
}

export interface ChecksFilters {
  limit: string;
  date_created: DateCondition;
  send_date: DateCondition;
  scheduled: '' | 'true' | 'false';
  mail_type: string;
  sort_by: string;
}

export const NO_CHECK_FILTERS: ChecksFilters = {
  limit: '',
  date_created: { operator: '', value: '' },
  send_date: { operator: '', value: '' },
  scheduled: '',
  mail_type: '',
  sort_by: '',
};

function dateConditionOf(query: Record<string, string>, field: 'date_created' | 'send_date'): DateCondition {
  const operator = DATE_OPERATORS.find(({ suffix }) => query[`${field}${suffix}`] !== undefined);
  return operator ? { operator: operator.suffix, value: query[`${field}${operator.suffix}`] ?? '' } : { operator: '', value: '' };
}

/** The form's filters in a console URL's query. */
export function checkFiltersOf(query: Record<string, string>): ChecksFilters {
  const scheduled = query.scheduled;
  return {
    limit: query.limit ?? '',
    date_created: dateConditionOf(query, 'date_created'),
    send_date: dateConditionOf(query, 'send_date'),
    scheduled: scheduled === 'true' || scheduled === 'false' ? scheduled : '',
    mail_type: query.mail_type ?? '',
    sort_by: query.sort_by ?? '',
  };
}

/** The filters as query parameters, empty ones left out. */
export function checkFilterParams(filters: ChecksFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.limit.trim()) params.limit = filters.limit.trim();
  for (const field of ['date_created', 'send_date'] as const) {
    const condition = filters[field];
    if (condition.value.trim()) params[`${field}${condition.operator}`] = condition.value.trim();
  }
  if (filters.scheduled) params.scheduled = filters.scheduled;
  if (filters.mail_type) params.mail_type = filters.mail_type;
  if (filters.sort_by) params.sort_by = filters.sort_by;
  return params;
}

const PASSED_ON = [
  'date_created',
  'date_created__gt',
  'date_created__gte',
  'date_created__lt',
  'date_created__lte',
  'send_date',
  'send_date__gt',
  'send_date__gte',
  'send_date__lt',
  'send_date__lte',
  'mail_type',
  'sort_by',
  'after',
  'before',
] as const;

/**
 * The API query of a console URL: every parameter GET /v1/checks reads, cursors included (they
 * come from the answer's next_url / previous_url), or why the URL cannot be sent.
 */
export function checksApiQueryOf(query: Record<string, string>): { ok: true; query: ChecksQuery } | { ok: false; message: string } {
  const api: ChecksQuery = {};
  for (const name of PASSED_ON) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    const label = CHECK_PARAM_LABELS[name];
    if (label !== undefined && !isTimestampFilter(value)) return { ok: false, message: `${label}: enter a date such as ${TIMESTAMP_EXAMPLE}, not “${value}”.` };
    api[name] = value;
  }
  for (const name of ['sort_by[date_created]', 'sort_by[send_date]'] as const) {
    const value = query[name];
    if (value === 'asc' || value === 'desc') api[name] = value;
  }
  if (query.scheduled === 'true' || query.scheduled === 'false') api.scheduled = query.scheduled === 'true';
  if (query.limit !== undefined && query.limit !== '') {
    const limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10000)
      return { ok: false, message: `Checks per page must be a whole number from 1 to 10000, not “${query.limit}”.` };
    api.limit = limit;
  }
  return { ok: true, query: api };
}

export function consoleChecksHref(params: Record<string, string>): string {
  const search = new URLSearchParams(params).toString();
  return search ? `/app/checks?${search}` : '/app/checks';
}
