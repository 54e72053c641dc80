/** Idempotency keys: a running claim (no response yet) or a kept answer, until `expires_at`. */
export interface IdempotencyKeysTable {
  company_id: string;
  scope: string;
  key: string;
  /** Who holds a running claim; completion and release apply only for the holder. */
  claim_token: string;
  request_hash: string | null;
  response_status: number | null;
  /** JSON object of the kept headers. */
  response_headers: string | null;
  response_body: string | null;
  expires_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
