export interface StoredCredential {
  readonly encryptedKey: string;
  readonly keyLast4: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A company's encrypted provider keys; this layer never sees a plaintext key. */
export interface CheckProviderCredentialsRepository {
  find(companyId: string, provider: string): Promise<StoredCredential | undefined>;
  /** Creates or replaces the company's key for the provider. */
  put(companyId: string, provider: string, credential: { encryptedKey: string; keyLast4: string; at: string }): Promise<StoredCredential>;
  /** True when a key was removed. */
  remove(companyId: string, provider: string): Promise<boolean>;
}
