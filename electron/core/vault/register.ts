import { createHmac } from 'node:crypto';
import { sameMac } from './crypto.ts';
import type { RegisterFile } from './file.ts';

// A register of journal names tagged under a journal key: which journals ever existed (journal/registry.ts
// says why). The vault keeps the stored profiles' register inside vault.json; the Sandbox profile's sits in
// a file of its own. The tag and its check live here, beside the vault that keeps one, so that the vault
// imports nothing of the journals it serves (.dependency-cruiser.cjs vault-below-journal-and-profiles).

const REGISTRY = 'treasury-desk-journal-registry-v1';

export interface JournalRegistry {
  /** Throws when the register does not verify (it was edited or belongs to another key). */
  has(name: string): boolean;
  add(name: string): void;
}

/** The register of journals that existed, over their names in order (HMAC-SHA256, each part ending in a newline). */
export function registryTag(key: Buffer, names: readonly string[]): string {
  const h = createHmac('sha256', key);
  for (const p of [REGISTRY, ...names]) h.update(`${p}\n`, 'utf8');
  return h.digest('hex');
}

export function makeRegister(key: Buffer, names: readonly string[]): RegisterFile {
  const sorted = [...new Set(names)].sort();
  return { names: sorted, tag: registryTag(key, sorted) };
}

/** The names a register holds, or an error saying why it cannot be trusted. */
export function registerNames(key: Buffer, r: RegisterFile | undefined, where: string): string[] {
  if (!r) return [];
  if (!sameMac(r.tag, registryTag(key, r.names))) {
    throw new Error(
      `the register of journals in ${where} does not verify with the journal key: it was edited, or it belongs to another desk.`,
    );
  }
  return r.names;
}
