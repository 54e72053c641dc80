/** What a mint narrowed a token to; null keeps what the record's type allows. */
export interface RecordTokenNarrowing {
  /** The field UIDs the token sees (within its type's form). */
  visible_fields: string[] | null;
  /** false: the token may not set the status, whatever its type's form says. */
  status_editable: boolean | null;
}

/** The stored document of a record token; its key is the JWT's `jti`. */
export interface RecordTokenDocument extends RecordTokenNarrowing {
  key: string;
  record_id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The minter's note ("sent to J. Smith, borrower"), shown in the token list. */
  label: string | null;
}
