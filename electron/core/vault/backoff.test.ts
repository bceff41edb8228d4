import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VaultError } from './errors.ts';
import { backoffDelayMs, MAX_WAIT_MS } from './backoff.ts';
import type { VaultClock } from './idleLock.ts';
import { DeskVault } from './vault.ts';

// A script in the window may call vaultUnlock as often as it likes: failed passphrases must cost it a
// growing wait that a restart does not reset. The clock is injected: no test waits for real.

const FAST_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const PASS = 'correct horse battery staple';

class StillClock implements VaultClock {
  t = 1_800_000_000_000;
  now() {
    return this.t;
  }
  setTimeout() {
    return 0;
  }
  clearTimeout() {}
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'backoff-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof VaultError ? e.code : (e as Error).name;
  }
}

describe('failed unlocks back off', () => {
  it('grows the wait after the free tries, to at most 15 minutes', () => {
    expect([1, 2, 3, 4, 5, 6].map(backoffDelayMs)).toEqual([0, 0, 1000, 2000, 4000, 8000]);
    expect(backoffDelayMs(40)).toBe(MAX_WAIT_MS);
  });

  it('refuses even the right passphrase during the wait, says how long, and keeps the count across a restart', async () => {
    const clock = new StillClock();
    const path = join(dir, 'vault.json');
    const first = DeskVault.open({ path, scrypt: FAST_SCRYPT, clock });
    await first.setPassphrase(undefined, PASS);
    first.lock();

    expect(await code(first.unlock('wrong passphrase 1'))).toBe('WRONG_PASSPHRASE');
    expect(await code(first.unlock('wrong passphrase 2'))).toBe('WRONG_PASSPHRASE');
    expect(first.status().unlock_wait_ms).toBe(0);
    const third = first.unlock('wrong passphrase 3').catch((e: Error) => e.message);
    expect(await third).toMatch(/wait 1 second before the next try/);
    expect(first.status()).toMatchObject({ locked: true, unlock_wait_ms: 1000 });
    const early = await first.unlock(PASS).catch((e: VaultError) => e);
    expect(early).toMatchObject({ code: 'UNLOCK_BACKOFF', message: expect.stringMatching(/Wait 1 second/) });
    expect(first.isLocked()).toBe(true);

    // A restart (a new vault object over the same folder) keeps the count and the wait.
    clock.t += 400;
    const again = DeskVault.open({ path, scrypt: FAST_SCRYPT, clock });
    expect(again.status().unlock_wait_ms).toBe(600);
    expect(await code(again.unlock(PASS))).toBe('UNLOCK_BACKOFF');
    clock.t += 600;
    expect(await code(again.unlock('wrong passphrase 4'))).toBe('WRONG_PASSPHRASE');
    expect(again.status().unlock_wait_ms).toBe(2000);
    clock.t += 2000;
    await again.unlock(PASS);
    expect(again.status()).toMatchObject({ locked: false, unlock_wait_ms: 0 });
    // Success resets the count: the next mistake is free again.
    again.lock();
    expect(await code(again.unlock('wrong passphrase 5'))).toBe('WRONG_PASSPHRASE');
    expect(again.status().unlock_wait_ms).toBe(0);
  });

  it('counts a wrong current passphrase when changing it, and a damaged count file as many failures', async () => {
    const clock = new StillClock();
    const path = join(dir, 'vault.json');
    const v = DeskVault.open({ path, scrypt: FAST_SCRYPT, clock });
    await v.setPassphrase(undefined, PASS);
    for (let i = 0; i < 3; i++) expect(await code(v.setPassphrase(`not it ${i} at all`, 'a new long passphrase'))).toBe('WRONG_PASSPHRASE');
    expect(await code(v.setPassphrase(PASS, 'a new long passphrase'))).toBe('UNLOCK_BACKOFF');

    writeFileSync(join(dir, 'unlock-backoff.json'), 'garbage');
    const again = DeskVault.open({ path, scrypt: FAST_SCRYPT, clock });
    expect(await code(again.unlock('wrong again, once more'))).toBe('WRONG_PASSPHRASE');
    expect(again.status().unlock_wait_ms).toBeGreaterThan(0);
  });
});

describe('a passphrase change racing a lock', () => {
  it('changes nothing and stays locked when the desk locks while scrypt runs', async () => {
    const path = join(dir, 'vault.json');
    const v = DeskVault.open({ path, scrypt: FAST_SCRYPT, clock: new StillClock() });
    await v.setPassphrase(undefined, PASS);
    const changing = v.setPassphrase(PASS, 'a new long passphrase');
    v.lock();
    expect(await code(changing)).toBe('LockedError');
    expect(v.isLocked()).toBe(true);
    expect(await code(DeskVault.open({ path, scrypt: FAST_SCRYPT }).unlock(PASS))).toBe('ok');
  });
});
