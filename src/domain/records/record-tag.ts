import { hash } from 'node:crypto';
import type { RecordResource } from './record.js';

/**
 * The record's entity tag (the quoted part of its ETag): the base64url SHA-256 of the record's
 * JSON, so any change of what the record answers (a field, its status, the views its type puts
 * it in) changes it, and equal records give equal tags on every replica.
 */
export function recordTag(record: RecordResource): string {
  return tagOfRecordJson(JSON.stringify(record));
}

/** recordTag of a record already serialised with JSON.stringify (as the API sends it). */
export function tagOfRecordJson(json: string): string {
  // One call, no Hash object: a record read hashes its answer on every request.
  return hash('sha256', json, 'base64url');
}

/** The `If-Match` of a write: any existing record (`*`), or one whose tag is among `tags` (strong comparison). */
export type RecordMatch = { readonly any: true } | { readonly tags: readonly string[] };

export function recordMatches(record: RecordResource, match: RecordMatch): boolean {
  return 'any' in match || match.tags.includes(recordTag(record));
}
