import type { Exact } from '../../lib/type-checks.js';
import type { DB } from '../schema.js';

/** Every table of the service, copied as a whole; the build stops when schema.ts gains one that is not here. */
export const COPIED_TABLES = [
  'events',
  'event_key_values',
  'record_types',
  'records',
  'record_stored_views',
  'record_tokens',
  'pdf_templates',
  'record_files',
  'blobs',
  'checks',
  'check_provider_credentials',
  'data_versions',
  'idempotency_keys',
  'webhooks',
  'webhook_subscriptions',
  'webhook_deliveries',
  'company_settings',
  'events_removed',
  'erasures',
  'company_offboardings',
] as const satisfies readonly (keyof DB)[];
true satisfies Exact<(typeof COPIED_TABLES)[number], keyof DB>;

export type CopiedTable = (typeof COPIED_TABLES)[number];
