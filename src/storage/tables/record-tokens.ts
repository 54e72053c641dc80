/** The stored document of each record token; its key is the JWT's `jti`. */
export interface RecordTokensTable {
  company_id: string;
  key: string;
  record_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface RecordTokensTables {
  record_tokens: RecordTokensTable;
}
