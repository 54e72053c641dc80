/** Each company's data version (see the DataVersions port). */
export interface DataVersionsTable {
  company_id: string;
  /** A bigint on PostgreSQL, which `pg` reads as a string. */
  version: number | string;
  /**
   * Where the company's change feed stood when cursors became sealed (migration 0013): a cursor
   * of the earlier form is read no further than this. Null for a company that had no events then.
   */
  legacy_cursor_xid: number | string | null;
  legacy_cursor_seq: number | string | null;
}

export interface DataVersionsTables {
  data_versions: DataVersionsTable;
}
