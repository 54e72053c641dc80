import type { WrsClient } from '../../clients/typescript/src/index.js';

/**
 * The running service as the client suite sees it: an address and clients with tokens. It
 * names no type of the service itself, so type-checking the suite stays quick.
 */
export interface ServiceUnderTest {
  readonly baseUrl: string;
  /** A client with a company user's token. */
  clientFor(companyId: string): Promise<WrsClient>;
  /** A client with any bearer token (a record token, a wrong one). */
  clientWith(token: string): WrsClient;
  /** A client with the operator token, for the /admin/v1 routes. */
  readonly operator: WrsClient;
  close(): Promise<void>;
}
