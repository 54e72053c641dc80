/**
 * Checks of the embedded (`local`) provider. The check itself is kept as the Lob-shaped JSON
 * the operator added; the columns beside it exist only to filter, sort and page on.
 */
export interface ChecksTable {
  company_id: string;
  id: string;
  /** ISO 8601 UTC with milliseconds, as in `body.date_created`. */
  date_created: string;
  /** ISO 8601 UTC with milliseconds, as in `body.send_date`. */
  send_date: string;
  /** 1 when send_date is later than date_created, else 0. */
  scheduled: number;
  mail_type: string;
  /** The whole check object as JSON text. */
  body: string;
}

/** A company's credentials for an external check provider, encrypted at rest. */
export interface CheckProviderCredentialsTable {
  company_id: string;
  /** Currently only `lob`. */
  provider: string;
  /** AES-256-GCM ciphertext of the API key (see src/lib/secret-box.ts). */
  encrypted_key: string;
  /** The key's last four characters, to tell keys apart without revealing them. */
  key_last4: string;
  created_at: string;
  updated_at: string;
}

export interface ChecksTables {
  checks: ChecksTable;
  check_provider_credentials: CheckProviderCredentialsTable;
}
