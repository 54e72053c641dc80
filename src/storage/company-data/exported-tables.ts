import type { Exact } from '../../lib/type-checks.js';
import type { DB } from '../schema.js';
import { EVENT_COLUMNS } from '../tables/events.js';

/**
 * How one table goes into a company export: its kind (the table's name), its key (the export's
 * order and its pages), and the columns it carries. company_id is never carried: it is the
 * header's. `binary` columns travel as base64; `boolean` columns as true/false whatever the
 * database stores; `suppliedOnImport` columns are never exported (they hold secrets) and the
 * importing deployment fills them.
 */
export interface ExportedTable<T extends keyof DB = keyof DB> {
  readonly table: T;
  readonly key: readonly (keyof DB[T] & string)[];
  readonly columns: readonly (keyof DB[T] & string)[];
  readonly binary?: readonly (keyof DB[T] & string)[];
  readonly boolean?: readonly (keyof DB[T] & string)[];
  readonly suppliedOnImport?: readonly (keyof DB[T] & string)[];
  /** Columns the target database computes as the rows are written (an event's JSON and feed position). */
  readonly regeneratedOnImport?: readonly (keyof DB[T] & string)[];
  /**
   * The order of the rows when it is not the key's, per database: events go in change-feed
   * order, so that the target's feed (whose positions the import hands out anew, in file order)
   * replays them in the same order as the source's.
   */
  readonly order?: Readonly<Record<'sqlite' | 'postgres', readonly (keyof DB[T] & string)[]>>;
  /** Rows per page: fewer where rows are large (a blob holds a whole PDF). */
  readonly pageRows: number;
}

const PAGE_ROWS = 1000;

type ColumnOf<T extends keyof DB> = keyof DB[T] & string;

/**
 * One table's entry; `complete` is `true` only when the carried and supplied columns (with
 * company_id) are every column of the table, so a new column stops the build until it is placed.
 */
function exported<
  T extends keyof DB,
  const C extends readonly ColumnOf<T>[],
  const S extends readonly ColumnOf<T>[] = readonly [],
  const R extends readonly ColumnOf<T>[] = readonly [],
>(
  spec: ExportedTable<T> & { readonly columns: C; readonly suppliedOnImport?: S; readonly regeneratedOnImport?: R },
  complete: Exact<C[number] | S[number] | R[number] | 'company_id', keyof DB[T]>,
): ExportedTable<T> {
  void complete;
  return spec;
}

const EVENT_EXPORTED_COLUMNS = EVENT_COLUMNS.filter((column): column is Exclude<(typeof EVENT_COLUMNS)[number], 'company_id'> => column !== 'company_id');

/**
 * Every table a company export carries, in the order it carries them (what others refer to
 * first; events last, as the largest). The one list: the export, the import and the check
 * that a company has no data all read it.
 */
export const EXPORTED_TABLES = [
  exported(
    {
      table: 'company_settings',
      key: ['company_id'],
      columns: ['retention_days', 'display_name', 'support_email'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported(
    {
      table: 'record_types',
      key: ['id'],
      columns: ['id', 'name', 'definition', 'version', 'created_at', 'updated_at', 'deleted_at'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported(
    {
      table: 'records',
      key: ['id'],
      columns: [
        'id',
        'record_type',
        'type_id',
        'uid',
        'status',
        'parent_record',
        'child_records',
        'instance',
        'fields',
        'linked',
        'views',
        'created_at',
        'updated_at',
      ],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported({ table: 'record_stored_views', key: ['view_id', 'record_id'], columns: ['view_id', 'record_id'], pageRows: PAGE_ROWS }, true),
  exported(
    {
      table: 'record_tokens',
      key: ['key'],
      columns: ['key', 'record_id', 'user_id', 'created_at', 'expires_at', 'revoked_at', 'visible_fields', 'status_editable', 'label'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported(
    {
      table: 'pdf_templates',
      key: ['id'],
      columns: ['id', 'template_json', 'size_bytes', 'pages', 'created_at', 'updated_at'],
      pageRows: 50,
    },
    true,
  ),
  exported(
    {
      table: 'record_files',
      key: ['id'],
      columns: ['id', 'record_id', 'template_id', 'filename', 'content_type', 'size_bytes', 'pages', 'sha256', 'blob_key', 'created_at'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported({ table: 'blobs', key: ['key'], columns: ['key', 'data', 'size_bytes', 'created_at'], binary: ['data'], pageRows: 8 }, true),
  exported(
    {
      table: 'checks',
      key: ['id'],
      columns: ['id', 'date_created', 'send_date', 'scheduled', 'mail_type', 'body'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported(
    {
      table: 'webhooks',
      key: ['id'],
      columns: ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'],
      suppliedOnImport: ['secret', 'previous_secret', 'previous_secret_expires_at'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported(
    {
      table: 'webhook_subscriptions',
      key: ['event_type', 'webhook_id'],
      columns: ['event_type', 'webhook_id'],
      pageRows: PAGE_ROWS,
    },
    true,
  ),
  exported(
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
] as const;

/**
 * The tables an export leaves out, and why; docs/data-lifecycle.md gives the same reasons.
 * With EXPORTED_TABLES they name every table, or the build fails.
 */
export const LEFT_OUT_TABLES = {
  event_key_values: 'derived from the events: the import rebuilds it as it writes them',
  check_provider_credentials: "a secret (the company's Lob API key): enter it again on the new deployment",
  data_versions: "the deployment's own change counter: the import bumps the target's",
  idempotency_keys: "kept answers to the source deployment's requests, which expire within a day",
  webhook_deliveries: "the source deployment's outbox: moved, it would deliver a second time what was already delivered",
  erasures: "the source deployment's audit of the erasures it ran, which stays with it (it holds no erased data either)",
  company_offboardings: "the source deployment's record of an offboarding, which stays with it",
  events_removed: "the source deployment's feed positions that retention removed: the target hands out positions of its own, so no source cursor is read there",
} as const satisfies Partial<Record<keyof DB, string>>;

type ExportedName = (typeof EXPORTED_TABLES)[number]['table'];
true satisfies Exact<ExportedName | keyof typeof LEFT_OUT_TABLES, keyof DB>;

export const EXPORT_KINDS: readonly string[] = EXPORTED_TABLES.map((spec) => spec.table);

export function exportedTable(kind: string): ExportedTable | undefined {
  return (EXPORTED_TABLES as readonly ExportedTable[]).find((spec) => spec.table === kind);
}
