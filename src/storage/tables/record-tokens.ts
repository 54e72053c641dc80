import type { RecordTokenDocument } from '../../domain/record-tokens/record-token.js';

/** The stored document of each record token, per company. */
export interface RecordTokensTable extends RecordTokenDocument {
  company_id: string;
}

export interface RecordTokensTables {
  record_tokens: RecordTokensTable;
}
