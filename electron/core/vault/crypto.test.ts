import { hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretBuffer, splitKeys } from './crypto.ts';

// The vault's keys are derived by HMACs written out (so that no native copy of the master key outlives a
// lock); they must stay the keys Node's HKDF made before, or every vault sealed until now would not open.

describe('the vault’s key derivation', () => {
  it('derives exactly what HKDF-SHA256 derives, for any master key', () => {
    for (let i = 0; i < 20; i++) {
      const master = secretBuffer(32);
      randomBytes(32).copy(master);
      const want = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.from('treasury-desk-vault-v1'), info, 32));
      const keys = splitKeys(master);
      expect(keys.enc.equals(want('enc'))).toBe(true);
      expect(keys.journal.equals(want('journal'))).toBe(true);
      expect(keys.master).toBe(master);
    }
  });

  it('keeps key material in a store of its own, never a slice of a shared pool', () => {
    const b = secretBuffer(32);
    expect(b.length).toBe(32);
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBe(32);
    expect(b.every((x) => x === 0)).toBe(true);
  });
});
