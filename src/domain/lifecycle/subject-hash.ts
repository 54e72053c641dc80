import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The keyed hash an erasure keeps instead of the erased value. Keyed, because a plain hash of a
 * user id (a UUID, an e-mail address) is undone by hashing guesses; with the key, only someone
 * holding WRS_ENCRYPTION_KEY can tell which person an entry names, and the same request gives
 * the same hash, so an operator can still answer "was this person erased?".
 */
export function createSubjectHasher(encryptionKey: Buffer): (companyId: string, field: string, value: string) => string {
  const key = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'wrs erasure subject v1', 32));
  return (companyId, field, value) => createHmac('sha256', key).update(`${companyId}\u0000${field}\u0000${value}`).digest('hex');
}
