import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';

// The vault file: profiles' non-secret parts in clear, their keys only sealed, and a MAC over the clear
// parts so that an edited base address or a swapped entry is refused at unlock.

const Sealed = z.strictObject({ iv: z.string(), data: z.string(), tag: z.string() });

export const Protection = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('passphrase'),
    kdf: z.strictObject({
      name: z.literal('scrypt'), salt: z.string(), N: z.number().int().min(2), r: z.number().int().min(1), p: z.number().int().min(1),
    }),
  }),
  z.strictObject({
    kind: z.literal('safe_storage'),
    /** The Linux backend in use when the vault was made (Signal Desktop records it for the same reason). */
    backend: z.string().nullable(),
    /** The random master key, encrypted by safeStorage, base64. */
    wrapped_key: z.string(),
  }),
]);
export type Protection = z.infer<typeof Protection>;

export const StoredKey = z.strictObject({
  /** "main", or "sub:<uid>" for a sub-account's key. */
  slot: z.string().regex(/^(main|sub:\d{1,18})$/),
  key_masked: z.string(),
  /** What the key may do (§5.2 groups), as the operator declared it or the exchange corrected it. */
  permissions: z.record(z.string(), z.string()).optional(),
  sealed: Sealed,
});
export type StoredKey = z.infer<typeof StoredKey>;

export const ProfileMeta = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  name: z.string().min(1).max(100),
  environment: z.string().min(1).max(40),
  base_url: z.string().url(),
  /** The service name in header prefixes (§4.3). */
  service_name: z.string().regex(/^[A-Za-z0-9]{1,20}$/).default('Svc'),
});
export type ProfileMeta = z.infer<typeof ProfileMeta>;

export const StoredProfile = ProfileMeta.extend({ keys: z.array(StoredKey) });
export type StoredProfile = z.infer<typeof StoredProfile>;

export const VaultFile = z.strictObject({
  format: z.literal('treasury-desk-vault'),
  version: z.literal(1),
  protection: Protection,
  verifier: Sealed,
  idle_lock_ms: z.number().int().min(0).nullable(),
  profiles: z.array(StoredProfile),
  mac: z.string().regex(/^[0-9a-f]{64}$/),
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
