import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

// The vault file holds no profile and no secret: only the master key, wrapped by the keyring or by a
// passphrase, and a check value that tells "this is the vault's key" from "this is some key".

const Sealed = z.strictObject({ iv: z.string(), data: z.string(), tag: z.string() });

export const Protection = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('passphrase'),
    kdf: z.strictObject({
      name: z.literal('scrypt'),
      salt: z.string(),
      N: z.number().int().min(2),
      r: z.number().int().min(1),
      p: z.number().int().min(1),
    }),
    /** The master key, AES-256-GCM under the scrypt key. */
    wrapped: Sealed,
  }),
  z.strictObject({
    kind: z.literal('safe_storage'),
    /** The Linux backend in use when the key was stored (Signal Desktop records it for the same reason). */
    backend: z.string().nullable(),
    /** The master key, encrypted by safeStorage, base64. */
    wrapped_key: z.string(),
  }),
]);
export type Protection = z.infer<typeof Protection>;

/** A register of journal names tagged under a journal key (vault/register.ts, journal/registry.ts); declared here, where the vault file holds one. */
export const RegisterFile = z.strictObject({
  names: z.array(z.string().min(1).max(200)).max(10_000),
  tag: z.string().regex(/^[0-9a-f]{64}$/),
});
export type RegisterFile = z.infer<typeof RegisterFile>;

export const VaultFile = z.strictObject({
  format: z.literal('treasury-desk-vault'),
  version: z.literal(1),
  protection: Protection,
  /** HMAC-SHA256 of a fixed text under the master key. */
  check: z.string().regex(/^[0-9a-f]{64}$/),
  /** The journals this vault's key ever authenticated, tagged under that key (journal/registry.ts). */
  journals: RegisterFile.optional(),
});
export type VaultFile = z.infer<typeof VaultFile>;

/** Writes the whole file next to its final place, fsyncs it, then renames it over: never half a vault. */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
  try {
    const dfd = openSync(dirname(path), 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  } catch {
    // Directories cannot be opened on some platforms; the rename itself is atomic.
  }
}
