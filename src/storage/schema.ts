import type { ChecksTables } from './tables/checks.js';
import type { CompanySettingsTables } from './tables/company-settings.js';
import type { DataVersionsTables } from './tables/data-versions.js';
import type { EventsTables } from './tables/events.js';
import type { LifecycleTables } from './tables/lifecycle.js';
import type { IdempotencyTables } from './tables/idempotency-keys.js';
import type { PdfTables } from './tables/pdf.js';
import type { RecordTokensTables } from './tables/record-tokens.js';
import type { RecordsTables } from './tables/records.js';
import type { WebhooksTables } from './tables/webhooks.js';

/**
 * The database as Kysely sees it: one interface per feature's tables, merged here.
 * Every table's primary key starts with company_id, so the schema can be sharded on it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface DB
  extends EventsTables,
    ChecksTables,
    PdfTables,
    RecordsTables,
    RecordTokensTables,
    DataVersionsTables,
    IdempotencyTables,
    WebhooksTables,
    CompanySettingsTables,
    LifecycleTables {}
