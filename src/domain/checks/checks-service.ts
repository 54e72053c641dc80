import { invalidBody, invalidQuery } from '../../errors/app-error.js';
import { batchRefused } from '../../errors/item-problems.js';
import type { Clock } from '../../lib/clock.js';
import type { Check } from './check.js';
import type { CheckListRequest } from './check-provider.port.js';
import { DuplicateCheckIdError, type ChecksRepository } from './checks-repository.port.js';
import { MAX_CHECKS_PER_BATCH } from './check-input.js';
import type { CursorCodec } from './cursor-codec.js';
import { sortTag, type CheckListQuery } from './list-query.js';
import { readCheck } from './new-check.js';
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
  /**
   * Adds a batch (a JSON array of Lob-shaped checks) to the embedded provider, all or none;
   * returns how many. A refusal lists every problem of every check at once.
   */
  add(companyId: string, body: unknown): Promise<number>;
}

export interface ChecksServiceDeps {
  readonly repository: ChecksRepository;
  readonly providers: CheckProviderSettings;
  readonly cursors: CursorCodec;
  readonly clock: Clock;
}

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

    async add(companyId, body) {
      if (!Array.isArray(body)) throw invalidBody("the body must be a JSON array of checks in Lob's shape");
      if (body.length > MAX_CHECKS_PER_BATCH) {
        throw invalidBody(`a request adds at most ${MAX_CHECKS_PER_BATCH.toLocaleString('en-US')} checks; this one has ${body.length.toLocaleString('en-US')}`);
      }
      const now = clock.now();
      const checks = body.map((input: unknown, index) => readCheck(input, index, now));
      const problems = checks.flatMap((check) => check.problems);
      const firstIndexOf = new Map<string, number>();
      for (const [index, { givenId }] of checks.entries()) {
        if (givenId === undefined) continue;
        const earlier = firstIndexOf.get(givenId);
        if (earlier === undefined) firstIndexOf.set(givenId, index);
        else problems.push({ index, field: 'id', message: `repeats the id of check ${earlier}` });
      }
      for (const id of await repository.existingIds(companyId, [...firstIndexOf.keys()])) {
        problems.push({ index: firstIndexOf.get(id)!, field: 'id', message: `a check with id ${id} already exists` });
      }
      if (problems.length > 0) {
        throw batchRefused(
          'invalid checks, nothing was added',
          problems.sort((a, b) => a.index - b.index),
        );
      }
      const rows = checks.map((check) => check.row!);
      try {
        await repository.insertAll(companyId, rows);
      } catch (error) {
        if (error instanceof DuplicateCheckIdError) {
          throw invalidBody('a check with one of these ids was added meanwhile; nothing was added');
        }
        throw error;
      }
      return rows.length;
    },
  };
}
