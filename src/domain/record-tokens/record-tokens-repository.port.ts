import type { TransactionScope } from '../unit-of-work.js';
import type { RecordTokenDocument } from './record-token.js';

/** Record token documents of a company; a token is honoured only while its document is live. */
export interface RecordTokensRepository {
  insert(companyId: string, document: Omit<RecordTokenDocument, 'revoked_at'>, scope?: TransactionScope): Promise<void>;
  find(companyId: string, key: string): Promise<RecordTokenDocument | undefined>;
  /** The record's tokens that are neither revoked nor expired at `now`, oldest first. */
  listLive(companyId: string, recordId: string, now: string): Promise<RecordTokenDocument[]>;
  /** Marks the record's token revoked (a second revocation keeps the first time); false when there is no such token. */
  revoke(companyId: string, recordId: string, key: string, at: string): Promise<boolean>;
  /** Marks every live token of the record revoked at `at`, in the scope's transaction; answers how many. */
  revokeAllOfRecord(companyId: string, recordId: string, at: string, scope: TransactionScope): Promise<number>;
}
