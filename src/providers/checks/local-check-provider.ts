import { invalidQuery } from '../../errors/app-error.js';
import type { CheckPage, CheckProvider, PagePosition } from '../../domain/checks/check-provider.port.js';
import type { CheckKey, ChecksRepository } from '../../domain/checks/checks-repository.port.js';

/** A local page position: a row's key, and whether the row itself belongs to the page. */
interface LocalPosition {
  v: string;
  id: string;
  i?: true;
}

/**
 * The embedded provider: checks kept in the service's own database, paged by keyset on
 * (sort field, id), so pages stay stable while checks are added.
 */
export function createLocalCheckProvider(repository: ChecksRepository): CheckProvider {
  return {
    name: 'local',
    async list(companyId, request): Promise<CheckPage> {
      const { filters, sort, limit } = request;
      const cursor = request.page ? { direction: request.page.direction, ...readPosition(request.page.position) } : undefined;
      const forward = cursor?.direction !== 'before';
      const slice = await repository.slice(companyId, {
        filters,
        sort,
        limit,
        direction: forward ? 'forward' : 'backward',
        ...(cursor ? { from: { key: cursor.key, inclusive: cursor.inclusive } } : {}),
      });
      const results = slice.rows.map((row) => row.check);
      const first = slice.rows[0]?.key;
      const last = slice.rows.at(-1)?.key;

      // Is there anything beyond `key` in this direction (including the key's own row when inclusive)?
      const anyBeyond = async (key: CheckKey, direction: 'forward' | 'backward', inclusive: boolean) =>
        (await repository.slice(companyId, { filters, sort, limit: 1, direction, from: { key, inclusive } })).rows.length > 0;

      let next: PagePosition | null = null;
      let previous: PagePosition | null = null;
      if (forward) {
        if (slice.more && last) next = position(last);
        if (first) previous = (await anyBeyond(first, 'backward', false)) ? position(first) : null;
        else if (cursor) previous = (await anyBeyond(cursor.key, 'backward', true)) ? position(cursor.key, true) : null;
      } else {
        if (slice.more && first) previous = position(first);
        if (last) next = (await anyBeyond(last, 'forward', false)) ? position(last) : null;
        else if (cursor) next = (await anyBeyond(cursor.key, 'forward', true)) ? position(cursor.key, true) : null;
      }
      return { results, next, previous };
    },
  };
}

function position(key: CheckKey, inclusive = false): LocalPosition {
  return inclusive ? { v: key.value, id: key.id, i: true } : { v: key.value, id: key.id };
}

function readPosition(value: PagePosition): { key: CheckKey; inclusive: boolean } {
  const candidate = value as Partial<LocalPosition> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.v !== 'string' ||
    typeof candidate.id !== 'string' ||
    (candidate.i !== undefined && candidate.i !== true)
  ) {
    throw invalidQuery('the page cursor is not valid', ['after', 'before']);
  }
  return { key: { value: candidate.v, id: candidate.id }, inclusive: candidate.i === true };
}
