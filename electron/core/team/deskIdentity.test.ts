import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeskVault } from '../vault/vault.ts';
import { DeskIdentity, type Sealer } from './deskIdentity.ts';
import { entrySignatureValid, signEntry } from './envelope.ts';

// A stored profiles' team keeps its desk key sealed by the vault, as the profiles' keys are: no private
// key in clear on disk, a key kept in clear before is sealed at its next use, and a locked vault opens none.

const FAST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'desk-identity-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function sealerOf(): Promise<{ vault: DeskVault; sealer: Sealer }> {
  const vault = DeskVault.open({ path: join(dir, 'vault.json'), scrypt: FAST_SCRYPT });
  await vault.setPassphrase(undefined, 'vault passphrase 1');
  return {
    vault,
    sealer: { seal: (p) => vault.box().seal(p, 'team-desk-key'), open: (s) => vault.box().open(s, 'team-desk-key') },
  };
}

describe("a team desk's key", () => {
  it('is sealed by the vault: nothing private in clear on disk, and it still signs', async () => {
    const { sealer } = await sealerOf();
    const key = new DeskIdentity(join(dir, 'team'), sealer).deskKey();
    const file = readFileSync(join(dir, 'team', 'desk-key.json'), 'utf8');
    expect(file).not.toMatch(/PRIVATE KEY|"private"/);
    expect(JSON.parse(file)).toEqual({ sealed: expect.any(String), public: key.public });
    // Read again by a new process: the same key.
    const again = new DeskIdentity(join(dir, 'team'), sealer).deskKey();
    expect(entrySignatureValid(key.public, 'entry', signEntry(again.private, 'entry'))).toBe(true);
  });

  it('kept in clear before, is sealed at its next use; without the vault a sealed one does not open', async () => {
    const clear = new DeskIdentity(join(dir, 'team')).deskKey();
    expect(readFileSync(join(dir, 'team', 'desk-key.json'), 'utf8')).toContain('PRIVATE KEY');
    const { vault, sealer } = await sealerOf();
    expect(new DeskIdentity(join(dir, 'team'), sealer).deskKey().public).toBe(clear.public);
    expect(readFileSync(join(dir, 'team', 'desk-key.json'), 'utf8')).not.toContain('PRIVATE KEY');
    expect(() => new DeskIdentity(join(dir, 'team')).deskKey()).toThrow(/sealed by the vault: unlock the vault/);
    vault.lock();
    expect(() => new DeskIdentity(join(dir, 'team'), sealer).deskKey()).toThrow();
  });
});
