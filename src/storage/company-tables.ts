import type { DB } from './schema.js';

/**
 * Every table that holds a company's rows (a `company_id` column), in the order an offboarding
 * empties them: what announces or delivers changes first (webhooks), so nothing goes out about
 * a company being removed, then the data. This is the one list; a new table with `company_id`
 * goes here or into KEPT_COMPANY_TABLES, and `test/lifecycle/company-tables.test.ts` fails
 * until it does.
 */
export const COMPANY_TABLES = [
  'webhook_subscriptions',
  'webhooks',
  'webhook_deliveries',
  'idempotency_keys',
  'record_tokens',
  'record_files',
  'blobs',
  'pdf_templates',
  'record_stored_views',
  'records',
  'record_types',
  'checks',
  'check_provider_credentials',
  'event_key_values',
  'events',
  'erasures',
  'company_settings',
] as const satisfies ReadonlyArray<keyof DB>;

/** Tables with `company_id` that an offboarding keeps, and why. */
export const KEPT_COMPANY_TABLES = {
  data_versions: 'a number, not data: kept (and bumped) so that an ETag or cached page of the removed data never matches what the company stores later',
  company_offboardings: "the offboarding's own progress and final report",
  events_removed:
    'a feed position, not data: kept so that a change-feed cursor from before the offboarding answers 410, never reads positions handed out again',
} as const satisfies Partial<Record<keyof DB, string>>;

export type CompanyTable = (typeof COMPANY_TABLES)[number];
