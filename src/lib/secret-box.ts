import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEALED_FORM = /^v1:[A-Za-z0-9_-]+$/;

/**
 * Encrypts small secrets (provider API keys) at rest with AES-256-GCM. The `context` string is
 * bound as additional authenticated data, so a ciphertext copied to another row (another
 * company) no longer decrypts.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** Throws when the ciphertext was altered, belongs to another context or another key. */
  open(sealed: string, context: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, payload] = sealed.split(':');
      if (version !== VERSION || payload === undefined) throw new Error('unknown secret format');
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('secret is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** Whether a text has the form `seal` gives (JSON, or any text that is not base64url after `v1:`, never has). */
export function isSealed(text: string): boolean {
  return SEALED_FORM.test(text);
}
