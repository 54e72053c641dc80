/** Company-level settings (migration 0016): one row per company that has set one. */
export interface CompanySettingsTable {
  company_id: string;
  /** NULL: the deployment default; 0: keep forever; N: keep N days of events. */
  retention_days: number | null;
}

/**
 * The highest change-feed position retention removed from each company (migration 0016): a
 * cursor below it is stale. `through_xid` is 0 on SQLite; both are bigints, which `pg` reads as strings.
 */
export interface EventsRemovedTable {
  company_id: string;
  through_xid: number | string;
  through_seq: number | string;
  removed_at: string;
}

export interface CompanySettingsTables {
  company_settings: CompanySettingsTable;
  events_removed: EventsRemovedTable;
}
