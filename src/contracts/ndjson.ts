/** Media types read as NDJSON (one JSON value per line); `application/json` is read as one array. */
export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];
