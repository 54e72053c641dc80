import type { WrsClient } from '@wrs/client';
import { call } from '../../../shared/api';
import type { ApiProblem } from '../../../shared/problems';
import type { BoardRecord } from './board-types';

export type MoveOutcome = { kind: 'moved' } | { kind: 'conflict' } | { kind: 'failed'; problem: ApiProblem };

/**
 * Sets a record's status as the board showed it. The record is read first: if it is no longer
 * what the card showed, someone else changed it and the move is not made. The PATCH then carries
 * that read's ETag in If-Match, so a change made between the read and the write is refused (412)
 * instead of being overwritten.
 */
export async function moveRecord(client: WrsClient, shown: BoardRecord, status: string): Promise<MoveOutcome> {
  const current = await call(() => client.GET('/v1/records/{record}', { params: { path: { record: shown.id } } }));
  if (!current.ok) return { kind: 'failed', problem: current.problem };
  if (current.data.updated_at !== shown.updated_at || current.data.status !== shown.status) return { kind: 'conflict' };
  const etag = current.response.headers.get('etag');
  if (!etag)
    return {
      kind: 'failed',
      problem: { status: 0, code: 'no_etag', message: 'The service sent no ETag for the record, so it could not be moved safely.', fields: {} },
    };
  const patched = await call(() =>
    client.PATCH('/v1/records/{record}', { params: { path: { record: shown.id }, header: { 'if-match': etag } }, body: { status } }),
  );
  if (patched.ok) return { kind: 'moved' };
  if (patched.problem.status === 412) return { kind: 'conflict' };
  return { kind: 'failed', problem: patched.problem };
}
