import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt } from 'node:crypto';

// The vault's primitives: scrypt turns a passphrase into a 32-byte key-encryption key; HKDF derives the
// key that seals secrets from the master key (so the master key itself never encrypts data); AES-256-GCM
// seals, and its additional data names what is sealed, so a wrapped master key cannot pass for a secret.

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt floor is N=2^17, r=8, p=1 (128 MiB, a few hundred ms); stored with the salt in the file. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

export interface Sealed {
  iv: string;
  data: string;
  tag: string;
}

export function deriveMasterKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const maxmem = 128 * params.N * params.r * params.p + 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), salt, 32, { ...params, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export interface VaultKeys {
  enc: Buffer;
  /** Authenticates the write journals (journal/mac.ts); rewrapping the master key keeps it. */
  journal: Buffer;
}

export function splitKeys(master: Buffer): VaultKeys {
  const derive = (info: string): Buffer => Buffer.from(hkdfSync('sha256', master, Buffer.from('treasury-desk-vault-v1'), info, 32));
  return { enc: derive('enc'), journal: derive('journal') };
}

export function seal(key: Buffer, plain: string, aad: string): Sealed {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return { iv: iv.toString('base64'), data: data.toString('base64'), tag: c.getAuthTag().toString('base64') };
}

/** The plaintext, or null when the key is wrong or the sealed bytes (or their slot) were changed. */
export function open(key: Buffer, s: Sealed, aad: string): string | null {
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'));
    d.setAAD(Buffer.from(aad, 'utf8'));
    d.setAuthTag(Buffer.from(s.tag, 'base64'));
    return Buffer.concat([d.update(Buffer.from(s.data, 'base64')), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
