/** Each company's data version (see the DataVersions port). */
export interface DataVersionsTable {
  company_id: string;
  /** A bigint on PostgreSQL, which `pg` reads as a string. */
  version: number | string;
}

export interface DataVersionsTables {
  data_versions: DataVersionsTable;
}
