/**
 * A record as stored. JSON values are kept as text (identical on both databases): a null
 * JSON column means the key was absent from the record, the text `null` means null.
 */
export interface StoredRecord {
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
