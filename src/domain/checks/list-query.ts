import { invalidQuery } from '../../errors/app-error.js';
import { parseTimestampFilter } from '../../lib/timestamps.js';
import { DEFAULT_CHECK_SORT, type Bound, type CheckFilters, type CheckSort, type CheckSortField, type TimeRange } from './check.js';

/** GET /checks, after its query string passed the route schema. */
export interface CheckListQuery {
  readonly limit: number;
  readonly filters: CheckFilters;
  readonly sort: CheckSort;
  readonly after?: string;
  readonly before?: string;
}

export const CHECK_TIME_FIELDS = ['date_created', 'send_date'] as const satisfies readonly CheckSortField[];
export const TIME_OPERATORS = ['gt', 'gte', 'lt', 'lte'] as const;
type TimeOperator = (typeof TIME_OPERATORS)[number];

const SORT_BRACKET_PARAMS = CHECK_TIME_FIELDS.map((field) => `sort_by[${field}]`);

interface Problem {
  readonly param: string;
  readonly reason: string;
}

/**
 * Compiles the GET /checks query into filters and one sort, in one place. Every problem is
 * collected and reported at once as a 400 `invalid_query` naming the parameters.
 */
export function parseCheckListQuery(query: Readonly<Record<string, unknown>>): CheckListQuery {
  const problems: Problem[] = [];
  const filters: { -readonly [K in keyof CheckFilters]: CheckFilters[K] } = {};

  for (const field of CHECK_TIME_FIELDS) {
    const range = parseTimeRange(field, query, problems);
    if (range) filters[field] = range;
  }
  if (query.scheduled !== undefined) filters.scheduled = query.scheduled === true || query.scheduled === 'true';
  if (typeof query.mail_type === 'string') filters.mail_type = query.mail_type;

  const sort = parseSort(query, problems);
  const after = typeof query.after === 'string' ? query.after : undefined;
  const before = typeof query.before === 'string' ? query.before : undefined;
  if (after !== undefined && before !== undefined) {
    problems.push({ param: 'after', reason: 'send either after or before, not both' }, { param: 'before', reason: '' });
  }

  if (problems.length > 0) {
    const params = [...new Set(problems.map((problem) => problem.param))];
    const reasons = problems.map((problem) => problem.reason).filter(Boolean);
    throw invalidQuery(reasons.join('; '), params);
  }
  return {
    limit: typeof query.limit === 'number' ? query.limit : 100,
    filters,
    sort,
    ...(after !== undefined ? { after } : {}),
    ...(before !== undefined ? { before } : {}),
  };
}

function parseTimeRange(field: CheckSortField, query: Readonly<Record<string, unknown>>, problems: Problem[]): TimeRange | undefined {
  const bounds: { lower?: Bound; upper?: Bound } = {};
  const apply = (side: 'lower' | 'upper', bound: Bound) => {
    bounds[side] = narrower(side, bounds[side], bound);
  };

  const exact = query[field];
  if (typeof exact === 'string') {
    const parsed = parseTimestampFilter(exact);
    if (!parsed) {
      problems.push(timeProblem(field, exact));
    } else if (parsed.dateOnly) {
      // A bare date means that whole UTC day.
      apply('lower', { at: parsed.iso, inclusive: true });
      apply('upper', { at: nextUtcDay(parsed.iso), inclusive: false });
    } else {
      apply('lower', { at: parsed.iso, inclusive: true });
      apply('upper', { at: parsed.iso, inclusive: true });
    }
  }
  for (const operator of TIME_OPERATORS) {
    const param = `${field}__${operator}`;
    const value = query[param];
    if (typeof value !== 'string') continue;
    const parsed = parseTimestampFilter(value);
    if (!parsed) {
      problems.push(timeProblem(param, value));
      continue;
    }
    apply(operator.startsWith('g') ? 'lower' : 'upper', { at: parsed.iso, inclusive: isInclusive(operator) });
  }
  return bounds.lower || bounds.upper ? bounds : undefined;
}

const isInclusive = (operator: TimeOperator): boolean => operator.endsWith('e');

/** Of two bounds on the same side, the one that lets fewer instants through. */
function narrower(side: 'lower' | 'upper', current: Bound | undefined, candidate: Bound): Bound {
  if (!current) return candidate;
  if (current.at === candidate.at) return current.inclusive ? candidate : current;
  const candidateIsTighter = side === 'lower' ? candidate.at > current.at : candidate.at < current.at;
  return candidateIsTighter ? candidate : current;
}

function nextUtcDay(midnightIso: string): string {
  return new Date(Date.parse(midnightIso) + 86_400_000).toISOString();
}

function timeProblem(param: string, value: string): Problem {
  return {
    param,
    reason: `query parameter '${param}' must be an ISO 8601 date (2026-11-01) or date-time with Z or an offset, got ${JSON.stringify(value.slice(0, 60))}`,
  };
}

/**
 * `sort_by` as `date_created`, `-date_created`, `send_date`, `-send_date` or Lob's
 * `{"date_created":"asc"}`, or Lob's `sort_by[date_created]=asc`; one field only.
 */
function parseSort(query: Readonly<Record<string, unknown>>, problems: Problem[]): CheckSort {
  const given: { param: string; sort: CheckSort | undefined }[] = [];
  if (typeof query.sort_by === 'string') given.push({ param: 'sort_by', sort: parseSortValue(query.sort_by) });
  CHECK_TIME_FIELDS.forEach((field, index) => {
    const param = SORT_BRACKET_PARAMS[index]!;
    const direction = query[param];
    if (direction === 'asc' || direction === 'desc') given.push({ param, sort: { field, direction } });
  });

  if (given.length > 1) {
    problems.push(
      { param: given[0]!.param, reason: `sort by one field only: use either date_created or send_date (got ${given.map((g) => g.param).join(', ')})` },
      ...given.slice(1).map((g) => ({ param: g.param, reason: '' })),
    );
    return DEFAULT_CHECK_SORT;
  }
  const only = given[0];
  if (!only) return DEFAULT_CHECK_SORT;
  if (!only.sort) {
    problems.push({
      param: only.param,
      reason: `query parameter 'sort_by' must be date_created, -date_created, send_date, -send_date, ` + `or one field as {"date_created":"asc"}`,
    });
    return DEFAULT_CHECK_SORT;
  }
  return only.sort;
}

function parseSortValue(value: string): CheckSort | undefined {
  const plain = /^(-?)(date_created|send_date)$/.exec(value);
  if (plain) return { field: plain[2] as CheckSortField, direction: plain[1] ? 'desc' : 'asc' };
  if (!value.trimStart().startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed);
  if (entries.length !== 1) return undefined;
  const [field, direction] = entries[0]!;
  if (!(CHECK_TIME_FIELDS as readonly string[]).includes(field) || (direction !== 'asc' && direction !== 'desc')) return undefined;
  return { field: field as CheckSortField, direction };
}

/** The sort written as a short stable tag (`date_created`, `-send_date`), for cursors. */
export function sortTag(sort: CheckSort): string {
  return `${sort.direction === 'desc' ? '-' : ''}${sort.field}`;
}
