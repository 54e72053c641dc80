/** The stored document of a record token; its key is the JWT's `jti`. */
export interface RecordTokenDocument {
  key: string;
  record_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}
