import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// The vault's primitives: scrypt turns a passphrase into a 32-byte key-encryption key; HKDF derives the
// key that seals secrets from the master key (so the master key itself never encrypts data); AES-256-GCM
// seals, and its additional data names what is sealed and where it belongs, so a wrapped master key
// cannot pass for a secret and a secret sealed for one profile does not open for another.
// Plaintexts stay in Buffers the caller zeroes: a JS string cannot be wiped, so a secret that became one
// would stay in the heap until the collector reuses its memory.

/**
 * A zeroed Buffer for key material, whose bytes live outside the JS heap. `Buffer.alloc(n)` of 64 bytes
 * or fewer lives inside it, where the collector moves it (and V8 copies it out the first time native code
 * reads it), leaving copies behind that no `fill(0)` reaches: a desk scanned after "Lock now" still held
 * the master key and the API secret that way. An ArrayBuffer's store is never moved.
 */
export function secretBuffer(size: number): Buffer {
  return Buffer.from(new ArrayBuffer(size));
}

/** Two HMAC-SHA256 values in hex, compared in constant time; anything not 32 bytes is never the same. */
export function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

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
  /** The master key itself, kept while unlocked so that per-purpose keys can be derived from it; zeroed on lock. */
  master: Buffer;
  enc: Buffer;
  /** Authenticates the write journals (journal/mac.ts); rewrapping the master key keeps it. */
  journal: Buffer;
}

const HKDF_SALT = Buffer.from('treasury-desk-vault-v1');

/**
 * HKDF-SHA256 (RFC 5869) for one 32-byte block, by its two HMACs. Node's hkdfSync would do the same, but
 * it copies the master key into a native key object that lives until the collector frees it: after a
 * lock, that copy would still be in memory. Here every intermediate is a Buffer zeroed before returning.
 */
function hkdf32(ikm: Buffer, info: string): Buffer {
  const prk = createHmac('sha256', HKDF_SALT).update(ikm).digest();
  const okm = createHmac('sha256', prk).update(info, 'utf8').update(Buffer.of(1)).digest();
  prk.fill(0);
  const out = secretBuffer(32);
  okm.copy(out);
  okm.fill(0);
  return out;
}

/** Takes ownership of `master` (from secretBuffer()): the caller must not zero it, lock() does. */
export function splitKeys(master: Buffer): VaultKeys {
  return { master, enc: hkdf32(master, 'enc'), journal: hkdf32(master, 'journal') };
}

export function seal(key: Buffer, plain: string | Buffer, aad: string): Sealed {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const data = Buffer.concat([typeof plain === 'string' ? c.update(plain, 'utf8') : c.update(plain), c.final()]);
  return { iv: iv.toString('base64'), data: data.toString('base64'), tag: c.getAuthTag().toString('base64') };
}

/** The plaintext bytes (the caller zeroes them), or null when the key is wrong or the sealed bytes (or their slot) were changed. */
export function openBytes(key: Buffer, s: Sealed, aad: string): Buffer | null {
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'));
    d.setAAD(Buffer.from(aad, 'utf8'));
    d.setAuthTag(Buffer.from(s.tag, 'base64'));
    const parts = [d.update(Buffer.from(s.data, 'base64'))];
    parts.push(d.final());
    const out = secretBuffer(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      at += p.copy(out, at);
      p.fill(0);
    }
    return out;
  } catch {
    return null;
  }
}

/** For what may be a string (never a secret). */
export function open(key: Buffer, s: Sealed, aad: string): string | null {
  const b = openBytes(key, s, aad);
  if (!b) return null;
  const text = b.toString('utf8');
  b.fill(0);
  return text;
}

// The wrapped master key is stored as base64 text (format version 1). Node's base64 goes through JS
// strings, so the master key is encoded and decoded here byte by byte.
const B64 = Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const B64_INDEX = new Int16Array(256).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64[i]!] = i;

export function base64EncodeBytes(src: Buffer): Buffer {
  const out = secretBuffer(Math.ceil(src.length / 3) * 4).fill('=');
  let o = 0;
  for (let i = 0; i < src.length; i += 3) {
    const n = (src[i]! << 16) | ((src[i + 1] ?? 0) << 8) | (src[i + 2] ?? 0);
    out[o++] = B64[(n >> 18) & 63]!;
    out[o++] = B64[(n >> 12) & 63]!;
    if (i + 1 < src.length) out[o] = B64[(n >> 6) & 63]!;
    o++;
    if (i + 2 < src.length) out[o] = B64[n & 63]!;
    o++;
  }
  return out;
}

/** Null when the text is not base64. */
export function base64DecodeBytes(src: Buffer): Buffer | null {
  let end = src.length;
  while (end > 0 && src[end - 1] === 0x3d) end--;
  const out = secretBuffer(Math.floor((end * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const v = B64_INDEX[src[i]!]!;
    if (v < 0) {
      out.fill(0);
      return null;
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  acc = 0;
  return out;
}
