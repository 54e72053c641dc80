import { AppError, invalidQuery } from '../../errors/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Check, CheckListRequest } from '../../providers/checks/check-provider.js';
import { DuplicateCheckIdError, type ChecksRepository } from '../../storage/repositories/checks.js';
import type { CursorCodec } from './cursor-codec.js';
import { sortTag, type CheckListQuery } from './list-query.js';
import { normalizeCheck, type CheckInput, type CheckProblem } from './new-check.js';
import type { CheckProviderSettings } from './provider-settings.js';

export interface CheckListing {
  readonly results: Check[];
  /** Cursor for `after=`, or null when nothing lies beyond this page. */
  readonly after: string | null;
  /** Cursor for `before=`, or null when nothing lies before this page. */
  readonly before: string | null;
}

export interface ChecksService {
  /** One page of the company's checks from the company's provider. */
  list(companyId: string, query: CheckListQuery): Promise<CheckListing>;
  /** Adds checks to the embedded provider, all or none; returns how many. */
  add(companyId: string, checks: readonly CheckInput[]): Promise<number>;
}

export interface ChecksServiceDeps {
  readonly repository: ChecksRepository;
  readonly providers: CheckProviderSettings;
  readonly cursors: CursorCodec;
  readonly clock: Clock;
}

const PROBLEMS_IN_MESSAGE = 20;

export function createChecksService(deps: ChecksServiceDeps): ChecksService {
  const { repository, providers, cursors, clock } = deps;

  return {
    async list(companyId, query) {
      const provider = await providers.providerFor(companyId);
      const sort = sortTag(query.sort);
      const param = query.after !== undefined ? 'after' : query.before !== undefined ? 'before' : undefined;
      let page: CheckListRequest['page'];
      if (param) {
        const cursor = cursors.decode(companyId, (param === 'after' ? query.after : query.before)!, param);
        if (cursor.provider !== provider.name) {
          throw invalidQuery(
            `query parameter '${param}' belongs to the ${cursor.provider} provider, but this company now uses ${provider.name}; start again without it`,
            [param],
          );
        }
        if (cursor.sort !== sort) {
          throw invalidQuery(`query parameter '${param}' was made for sort_by=${cursor.sort}; send the same sort_by with it`, [param]);
        }
        page = { direction: param, position: cursor.position };
      }
      const result = await provider.list(companyId, {
        limit: query.limit,
        filters: query.filters,
        sort: query.sort,
        ...(page ? { page } : {}),
      });
      const encode = (direction: 'after' | 'before', position: unknown) =>
        position === null ? null : cursors.encode(companyId, { provider: provider.name, direction, sort, position });
      return { results: result.results, after: encode('after', result.next), before: encode('before', result.previous) };
    },

    async add(companyId, inputs) {
      const now = clock.now();
      const problems: CheckProblem[] = [];
      const rows = [];
      for (const [index, input] of inputs.entries()) {
        const normalized = normalizeCheck(input, index, now);
        if (normalized.ok) rows.push({ index, row: normalized.row });
        else problems.push(...normalized.problems);
      }
      const firstIndexOf = new Map<string, number>();
      for (const { index, row } of rows) {
        const earlier = firstIndexOf.get(row.id);
        if (earlier === undefined) firstIndexOf.set(row.id, index);
        else problems.push({ index, field: 'id', message: `repeats the id of check ${earlier}` });
      }
      const taken = new Set(await repository.existingIds(companyId, [...firstIndexOf.keys()]));
      for (const { index, row } of rows) {
        if (taken.has(row.id) && firstIndexOf.get(row.id) === index) {
          problems.push({ index, field: 'id', message: `a check with id ${row.id} already exists` });
        }
      }
      if (problems.length > 0) throw checksInvalid(problems);
      try {
        await repository.insertAll(companyId, rows.map(({ row }) => row));
      } catch (error) {
        if (error instanceof DuplicateCheckIdError) {
          throw new AppError(400, 'validation_failed', 'a check with one of these ids was added meanwhile; nothing was added');
        }
        throw error;
      }
      return rows.length;
    },
  };
}

function checksInvalid(problems: CheckProblem[]): AppError {
  problems.sort((a, b) => a.index - b.index);
  const shown = problems.slice(0, PROBLEMS_IN_MESSAGE).map((p) => `[${p.index}].${p.field} ${p.message}`);
  const more = problems.length > PROBLEMS_IN_MESSAGE ? `; and ${problems.length - PROBLEMS_IN_MESSAGE} more` : '';
  return new AppError(400, 'validation_failed', `invalid checks, nothing was added: ${shown.join('; ')}${more}`, {
    details: { errors: problems },
  });
}
