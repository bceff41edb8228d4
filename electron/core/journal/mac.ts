import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../vault/file.ts';
import { sameMac } from '../vault/crypto.ts';

// Journal entries and the journal's head are authenticated with HMAC-SHA256 under a key the desk never
// writes in clear: for stored profiles it is derived from the vault's master key, so whoever can write
// the data folder but not unlock the vault cannot make an entry the desk will drive. Every MAC also binds
// the journal's own name, so an authentic entry moved into another profile's journal does not verify.

/** Hands out the journal's MAC key when it is available; throws (LockedError) when it is not. */
export type JournalKey = () => Buffer;

const ENTRY = 'treasury-desk-journal-entry-v2';
const HEAD = 'treasury-desk-journal-head-v2';
const GENESIS = 'treasury-desk-journal-genesis-v2';
const ANCHOR = 'treasury-desk-journal-anchor-v1';

function hmac(key: Buffer, parts: string[]): string {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(`${p}\n`, 'utf8');
  return h.digest('hex');
}

export function entryMac(key: Buffer, journalId: string, text: string): string {
  return hmac(key, [ENTRY, journalId, text]);
}

/** The "prev" of the first entry: a value only the key holder can make, and one per journal. */
export function genesisMac(key: Buffer, journalId: string): string {
  return hmac(key, [GENESIS, journalId]);
}

export function headTag(key: Buffer, journalId: string, seq: number, mac: string): string {
  return hmac(key, [HEAD, journalId, String(seq), mac]);
}

/** The anchor outside the data folder: where the journal stood, and its last freeze (0: none). */
export function anchorTag(key: Buffer, journalId: string, seq: number, mac: string, freeze: number): string {
  return hmac(key, [ANCHOR, journalId, String(seq), mac, String(freeze)]);
}

// The register of journals is tagged in vault/register.ts (registryTag), beside the vault that keeps one;
// the constant-time comparison of two MACs is vault/crypto.ts's, named here for the journal's readers.
export { sameMac };

/**
 * A random per-desk key in a 0600 file, for journals that no vault protects (the built-in Sandbox
 * profile, whose own keys sit in clear in the Sandbox's credentials.json). It guards play money only:
 * whoever can read the data folder can read this key.
 */
export function fileJournalKey(path: string): JournalKey {
  let key: Buffer | null = null;
  return () => {
    if (key) return key;
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileAtomic(path, `${randomBytes(32).toString('hex')}\n`);
    }
    if (process.platform !== 'win32') chmodSync(path, 0o600);
    const hex = readFileSync(path, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`the journal key file ${path} is not a 64-digit hex key; it was damaged or edited`);
    key = Buffer.from(hex, 'hex');
    return key;
  };
}
