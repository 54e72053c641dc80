/** Company-level settings (migrations 0016, 0020): one row per company that has set one. */
export interface CompanySettingsTable {
  company_id: string;
  /** NULL: the deployment default; 0: keep forever; N: keep N days of events. */
  retention_days: number | null;
  /** The company's name as the hosted form shows it; NULL: not set. */
  display_name: string | null;
  /** Where the people a form link is sent to may write; NULL: not set. */
  support_email: string | null;
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
