import type { RecordType, WrsClient, WrsRecord } from '@wrs/client';
import { call, type ApiResult } from './api';

/** A record as the service last answered it, its type, and the ETag that a PATCH must match. */
export interface RecordVersion {
  record: WrsRecord;
  /** Undefined for a record that is not of a custom type (it has no fields to edit). */
  type: RecordType | undefined;
  etag: string | undefined;
}

/** Loads a record and its type; a record token may read both. */
export async function loadRecordVersion(client: WrsClient, recordId: string): Promise<ApiResult<RecordVersion>> {
  // no-store: a version from the browser's cache would make the next PATCH a needless conflict.
  const loaded = await call(() => client.GET('/v1/records/{record}', { params: { path: { record: recordId } }, cache: 'no-store' }));
  if (!loaded.ok) return loaded;
  const record = loaded.data;
  const etag = loaded.response.headers.get('etag') ?? undefined;
  if (record.record_type !== 'custom' || typeof record.uid !== 'string') {
    return { ok: true, data: { record, type: undefined, etag }, response: loaded.response };
  }
  const typeId = record.uid;
  const type = await call(() => client.GET('/v1/record-types/{typeId}', { params: { path: { typeId } }, cache: 'no-store' }));
  if (!type.ok) return type;
  return { ok: true, data: { record, type: type.data, etag }, response: loaded.response };
}
