/** A version of a custom record type as stored. */
export interface StoredRecordType {
  readonly id: string;
  readonly name: string;
  /** JSON text of {fields, statuses, views}. */
  readonly definition: string;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface RecordTypeVersion {
  readonly id: string;
  readonly version: number;
}
