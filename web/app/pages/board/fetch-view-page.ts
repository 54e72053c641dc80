import type { RecordType, WrsClient } from '@wrs/client';
import { call, type ApiResult } from '../../../shared/api';
import type { BoardRecord } from './board-types';

export interface ViewPage {
  records: BoardRecord[];
  /** The `next` cursor of the answer, when more records lie that way. */
  nextCursor: string | undefined;
}

/**
 * One page of a view's records. View IDs are not unique across record types, so the records of
 * other custom types that share the view's ID are left out here.
 */
export async function fetchViewPage(client: WrsClient, type: RecordType, viewId: string, cursor?: string): Promise<ApiResult<ViewPage>> {
  const result = await call(() =>
    client.GET('/v1/records', { params: { query: { record_type: 'custom', view_id: viewId, limit: 100, ...(cursor ? { next: cursor } : {}) } } }),
  );
  if (!result.ok) return result;
  return {
    ok: true,
    response: result.response,
    data: {
      records: result.data.results.filter((record) => record.uid === type.id),
      nextCursor: result.data.next ? (new URL(result.data.next, location.origin).searchParams.get('next') ?? undefined) : undefined,
    },
  };
}
