import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// The vault's primitives: scrypt turns a passphrase into a 32-byte master key; HKDF splits the master
// key into an encryption key and a MAC key; AES-256-GCM seals each secret, bound by its additional data
// to the slot it belongs to, so a sealed secret moved to another profile fails to open.

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
  mac: Buffer;
}

export function splitKeys(master: Buffer): VaultKeys {
  const salt = Buffer.from('treasury-desk-vault-v1');
  return {
    enc: Buffer.from(hkdfSync('sha256', master, salt, 'enc', 32)),
    mac: Buffer.from(hkdfSync('sha256', master, salt, 'mac', 32)),
  };
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

export function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

export function macEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** JSON with sorted keys, so the MAC does not depend on property order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
