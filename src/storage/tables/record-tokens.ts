import type { RecordTokenDocument } from '../../domain/record-tokens/record-token.js';

/** The stored document of each record token, per company. */
export interface RecordTokensTable extends Omit<RecordTokenDocument, 'visible_fields' | 'status_editable'> {
  company_id: string;
  /** JSON text of the field UIDs. */
  visible_fields: string | null;
  /** 0 or 1. */
  status_editable: number | null;
}

export interface RecordTokensTables {
  record_tokens: RecordTokensTable;
}
