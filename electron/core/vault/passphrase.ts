import { randomBytes } from 'node:crypto';
import { base64DecodeBytes, base64EncodeBytes, deriveMasterKey, openBytes, seal, type ScryptParams } from './crypto.ts';
import { VaultError } from './errors.ts';
import type { Protection } from './file.ts';

// The master key wrapped under a passphrase: scrypt with a fresh salt, then AES-256-GCM. Every
// intermediate copy of the key is zeroed as soon as it has served.

type PassphraseProtection = Extract<Protection, { kind: 'passphrase' }>;

/** As the IPC contract's passphrase rule (shared/ipc.ts). */
export const MIN_PASSPHRASE = 10;
const MASTER_AAD = 'master-key';

export function checkPassphrase(p: string): void {
  if (typeof p !== 'string' || [...p].length < MIN_PASSPHRASE) {
    throw new VaultError('WEAK_PASSPHRASE', `The passphrase must be at least ${MIN_PASSPHRASE} characters long.`);
  }
}

export function formatWait(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  return `${m} minute${m === 1 ? '' : 's'}`;
}

/** `master` wrapped under `passphrase`, as the vault file keeps it; `master` stays the caller's. */
export async function wrapWithPassphrase(master: Buffer, passphrase: string, params: ScryptParams): Promise<PassphraseProtection> {
  const salt = randomBytes(16);
  const kek = await deriveMasterKey(passphrase, salt, params);
  const text = base64EncodeBytes(master);
  const wrapped = seal(kek, text, MASTER_AAD);
  text.fill(0);
  kek.fill(0);
  return { kind: 'passphrase', kdf: { name: 'scrypt', salt: salt.toString('base64'), ...params }, wrapped };
}

/** The key `passphrase` unwraps, not yet checked against the vault file; null when it unwraps none. */
export async function unwrapWithPassphrase(p: PassphraseProtection, passphrase: string): Promise<Buffer | null> {
  const { N, r, p: par, salt } = p.kdf;
  const kek = await deriveMasterKey(passphrase, Buffer.from(salt, 'base64'), { N, r, p: par });
  const text = openBytes(kek, p.wrapped, MASTER_AAD);
  kek.fill(0);
  if (text === null) return null;
  const master = base64DecodeBytes(text);
  text.fill(0);
  return master;
}
