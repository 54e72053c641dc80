/** Lifecycle jobs (migration 0015): erasures of a person's data and offboardings of a company. */
export interface ErasuresTable {
  company_id: string;
  id: string;
  field: 'user_id';
  subject_hash: string;
  /** subject_hash while the job runs, null once it is done: the unique index of running jobs. */
  running_subject_hash: string | null;
  subject_sealed: string | null;
  state: 'running' | 'done';
  requested_by: 'operator_api' | 'cli';
  requested_at: string;
  updated_at: string;
  finished_at: string | null;
  lease_until: string | null;
  events_removed: number | string;
  record_tokens_removed: number | string;
  batches: number | string;
}

export interface CompanyOffboardingsTable {
  company_id: string;
  state: 'running' | 'done';
  requested_by: 'operator_api' | 'cli';
  requested_at: string;
  updated_at: string;
  finished_at: string | null;
  lease_until: string | null;
  /** JSON: {table: rows removed}. */
  removed: string;
  batches: number | string;
}

export interface LifecycleTables {
  erasures: ErasuresTable;
  company_offboardings: CompanyOffboardingsTable;
}
