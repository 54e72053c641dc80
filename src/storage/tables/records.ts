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

/**
 * A record's columns (record-mapper.ts converts them to and from the domain's RecordModel).
 * JSON values are text: a NULL column means the key is absent from the record, the text
 * `null` means null.
 */
export interface RecordColumns {
  id: string;
  record_type: string;
  /** The custom record type (uid) the record follows, or null for records of other kinds. */
  type_id: string | null;
  uid: string | null;
  status: string;
  parent_record: string | null;
  child_records: string;
  instance: string | null;
  fields: string | null;
  linked: string | null;
  /** JSON array: views as imported; used only while the record has no defined type. */
  views: string;
  created_at: string;
  updated_at: string;
}

/** A stored record's columns, in order: the order the single-row insert binds them and the export writes them. */
export const RECORD_COLUMNS = [
  'id',
  'record_type',
  'type_id',
  'uid',
  'status',
  'parent_record',
  'child_records',
  'instance',
  'fields',
  'linked',
  'views',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof RecordColumns)[];

export interface RecordsTable extends RecordColumns {
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
