import type { StoredRecord } from '../../domain/records/stored-record.js';

/** Tables of workboard records. JSON values are kept as text (identical on both databases). */
export interface RecordTypesTable {
  company_id: string;
  id: string;
  name: string;
  /** JSON: {fields, statuses, views}. */
  definition: string;
  /** Bumped on every replacement; never reused, because a deleted type keeps its row. */
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface RecordsTable extends StoredRecord {
  company_id: string;
}

/** One row per view named by an imported record's stored views, so `view_id` can filter on them. */
export interface RecordStoredViewsTable {
  company_id: string;
  view_id: string;
  record_id: string;
}

export interface RecordsTables {
  record_types: RecordTypesTable;
  records: RecordsTable;
  record_stored_views: RecordStoredViewsTable;
}
