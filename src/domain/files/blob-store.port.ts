import type { TransactionScope } from '../unit-of-work.js';

/**
 * Where stored files keep their bytes, per company. Keys are chosen by the caller and never
 * reused. A store that lives in the service's database joins the caller's transaction through
 * `scope`, so that file metadata and bytes are written together or not at all.
 */
export interface BlobStore {
  put(companyId: string, key: string, bytes: Uint8Array, scope?: TransactionScope): Promise<void>;
  /** The bytes, or null when the company has no blob under that key. */
  get(companyId: string, key: string): Promise<Buffer | null>;
  delete(companyId: string, key: string, scope?: TransactionScope): Promise<void>;
}
