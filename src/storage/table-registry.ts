import type { Exact } from '../lib/type-checks.js';
import { type ExportedTable, exported } from './company-data/exported-table.js';
import type { DB } from './schema.js';
import { EVENT_COLUMNS } from './tables/events.js';
import { RECORD_COLUMNS } from './tables/records.js';

/**
 * What the operations over whole companies do with one table. Every table holds a company's
 * rows (a `company_id` column), which an offboarding either removes or keeps for the reason
 * given; a company export either carries the table (how, in `ExportedTable`) or leaves it out
 * for the reason given (docs/data-lifecycle.md gives the same reasons).
 */
interface TableRoles<T extends keyof DB> {
  readonly offboarding: 'removed' | { readonly kept: string };
  readonly export: ExportedTable<T> | { readonly leftOut: string };
}

const PAGE_ROWS = 1000;

const EVENT_EXPORTED_COLUMNS = EVENT_COLUMNS.filter((column): column is Exclude<(typeof EVENT_COLUMNS)[number], 'company_id'> => column !== 'company_id');

/**
 * Every table of the service, with its roles: the one registry that the database copy, the
 * offboarding and the company export read. The build stops when schema.ts gains a table that is
 * not here, or a table's role is missing; `test/lifecycle/table-registry.test.ts` holds it against
 * the migrated schema of both databases. `wrs copy-database` copies every table, in this order.
 */
export const TABLES = {
  events: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'events',
        key: ['id'],
        columns: EVENT_EXPORTED_COLUMNS,
        boolean: ['excluded'],
        regeneratedOnImport: ['body', 'feed_seq', 'feed_xid'],
        order: { sqlite: ['feed_seq'], postgres: ['feed_xid', 'feed_seq'] },
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  event_key_values: {
    offboarding: 'removed',
    export: { leftOut: 'derived from the events: the import rebuilds it as it writes them' },
  },
  record_types: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'record_types',
        key: ['id'],
        columns: ['id', 'name', 'definition', 'version', 'created_at', 'updated_at', 'deleted_at'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  records: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'records',
        key: ['id'],
        columns: RECORD_COLUMNS,
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  record_stored_views: {
    offboarding: 'removed',
    export: exported({ table: 'record_stored_views', key: ['view_id', 'record_id'], columns: ['view_id', 'record_id'], pageRows: PAGE_ROWS }, true),
  },
  record_tokens: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'record_tokens',
        key: ['key'],
        columns: ['key', 'record_id', 'user_id', 'created_at', 'expires_at', 'revoked_at', 'visible_fields', 'status_editable', 'label'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  pdf_templates: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'pdf_templates',
        key: ['id'],
        columns: ['id', 'template_json', 'size_bytes', 'pages', 'created_at', 'updated_at'],
        pageRows: 50,
      },
      true,
    ),
  },
  record_files: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'record_files',
        key: ['id'],
        columns: ['id', 'record_id', 'template_id', 'filename', 'content_type', 'size_bytes', 'pages', 'sha256', 'blob_key', 'created_at'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  blobs: {
    offboarding: 'removed',
    export: exported({ table: 'blobs', key: ['key'], columns: ['key', 'data', 'size_bytes', 'created_at'], binary: ['data'], pageRows: 8 }, true),
  },
  checks: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'checks',
        key: ['id'],
        columns: ['id', 'date_created', 'send_date', 'scheduled', 'mail_type', 'body'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  check_provider_credentials: {
    offboarding: 'removed',
    export: { leftOut: "a secret (the company's Lob API key): enter it again on the new deployment" },
  },
  data_versions: {
    offboarding: {
      kept: 'a number, not data: kept (and bumped) so that an ETag or cached page of the removed data never matches what the company stores later',
    },
    export: { leftOut: "the deployment's own change counter: the import bumps the target's" },
  },
  idempotency_keys: {
    offboarding: 'removed',
    export: { leftOut: "kept answers to the source deployment's requests, which expire within a day" },
  },
  webhooks: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'webhooks',
        key: ['id'],
        columns: ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'],
        suppliedOnImport: ['secret', 'previous_secret', 'previous_secret_expires_at'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  webhook_subscriptions: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'webhook_subscriptions',
        key: ['event_type', 'webhook_id'],
        columns: ['event_type', 'webhook_id'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  webhook_deliveries: {
    offboarding: 'removed',
    export: { leftOut: "the source deployment's outbox: moved, it would deliver a second time what was already delivered" },
  },
  company_settings: {
    offboarding: 'removed',
    export: exported(
      {
        table: 'company_settings',
        key: ['company_id'],
        columns: ['retention_days', 'display_name', 'support_email'],
        pageRows: PAGE_ROWS,
      },
      true,
    ),
  },
  events_removed: {
    offboarding: {
      kept: 'a feed position, not data: kept so that a change-feed cursor from before the offboarding answers 410, never reads positions handed out again',
    },
    export: {
      leftOut: "the source deployment's feed positions that retention removed: the target hands out positions of its own, so no source cursor is read there",
    },
  },
  erasures: {
    offboarding: 'removed',
    export: { leftOut: "the source deployment's audit of the erasures it ran, which stays with it (it holds no erased data either)" },
  },
  company_offboardings: {
    offboarding: { kept: "the offboarding's own progress and final report" },
    export: { leftOut: "the source deployment's record of an offboarding, which stays with it" },
  },
} as const satisfies { readonly [T in keyof DB]: TableRoles<T> };

/**
 * Tables that are parts of `events` on PostgreSQL (migration 0022, docs/data-lifecycle.md): its
 * month partitions and DEFAULT partition, and `event_ids`, which holds the uniqueness of
 * (company_id, id). Every operation over a company goes through `events`, whose repositories
 * keep `event_ids` in step (an offboarding's or erasure's batch of events deletes their ids in
 * the same transaction); a database copy and an import fill it as they write the events.
 */
export const POSTGRES_EVENT_PARTS = /^(events_default|events_\d{4}_\d{2}|event_ids)$/;

export type CopiedTable = keyof typeof TABLES;
export type OffboardedTable = { [T in CopiedTable]: (typeof TABLES)[T]['offboarding'] extends 'removed' ? T : never }[CopiedTable];
type ExportedName = { [T in CopiedTable]: (typeof TABLES)[T]['export'] extends { readonly leftOut: string } ? never : T }[CopiedTable];

/** The tables `wrs copy-database` copies: all of them. */
export const COPIED_TABLES = Object.keys(TABLES) as readonly CopiedTable[];

/**
 * The order an offboarding empties the tables it removes: what announces or delivers changes
 * first (webhooks), so nothing goes out about a company being removed, then the data.
 */
export const OFFBOARDING_ORDER = [
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
] as const satisfies readonly OffboardedTable[];
true satisfies Exact<(typeof OFFBOARDING_ORDER)[number], OffboardedTable>;

/** The order a company export carries its tables: what others refer to first; events last, as the largest. */
const EXPORT_ORDER = [
  'company_settings',
  'record_types',
  'records',
  'record_stored_views',
  'record_tokens',
  'pdf_templates',
  'record_files',
  'blobs',
  'checks',
  'webhooks',
  'webhook_subscriptions',
  'events',
] as const satisfies readonly ExportedName[];
true satisfies Exact<(typeof EXPORT_ORDER)[number], ExportedName>;

/**
 * Every table a company export carries, in its order: the export, the import and the check that
 * a company has no data all read it. (Each spec was checked against its own table above; the
 * cast forgets which table, as its readers need.)
 */
export const EXPORTED_TABLES = EXPORT_ORDER.map((table) => TABLES[table].export) as readonly ExportedTable[];

export const EXPORT_KINDS: readonly string[] = EXPORT_ORDER;

export function exportedTable(kind: string): ExportedTable | undefined {
  return EXPORTED_TABLES.find((spec) => spec.table === kind);
}
