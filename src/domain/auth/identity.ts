import type { RecordTokenNarrowing } from '../record-tokens/record-token.js';

/**
 * Who a request acts as, decided once by the authentication layer. The company comes only
 * from here, never from a path, a query or a body.
 */
export type Identity = UserIdentity | RecordTokenIdentity;

/** A bearer JWT of a company user. */
export interface UserIdentity {
  readonly kind: 'user';
  readonly companyId: string;
  readonly userId: string | null;
}

/**
 * A record token: may read and update one record, and nothing else; of that record, only what
 * its type's form and its mint's narrowing allow.
 */
export interface RecordTokenIdentity {
  readonly kind: 'record';
  readonly narrowing: RecordTokenNarrowing;
  readonly companyId: string;
  readonly userId: string;
  readonly recordId: string;
  readonly tokenKey: string;
}
