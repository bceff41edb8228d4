import { TotalBalance } from '../../../shared/api/records.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { ProfileStore } from '../profiles/store.ts';
import { LockedError } from '../vaultPort.ts';
import { VaultError } from './errors.ts';
import type { VaultClock } from './idleLock.ts';
import { DeskVault } from './vault.ts';
import { fakeKeyring } from '../testkit/recordingExchange.ts';

const FAST_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const MAIN = { key: 'AKmainKEY0123456789abcdef', secret: 'SECRETmain-9f8e7d6c5b4a39281706f5e4d3c2b1a0' };
const SUB = { uid: '10001', key: 'AKsubKEY99887766554433', secret: 'SECRETsub-0a1b2c3d4e5f60718293a4b5c6d7e8f9' };
const PASS = 'correct horse battery staple';
const PROFILE = {
  id: 'live1',
  name: 'Live treasury',
  environment: 'live' as const,
  baseUrl: 'https://api.example.com/api/v4',
  credentials: { key: MAIN.key, secret: MAIN.secret },
  subKeys: [SUB],
  permissions: {
    spot: 'read' as const,
    futures: 'none' as const,
    delivery: 'none' as const,
    wallet: 'write' as const,
    withdraw: 'write' as const,
    unified: false,
  },
};

let dir: string;
let path: string;
const errors: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vault-'));
  path = join(dir, 'vault.json');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs fn, expects that error (a VaultError code, or LockedError), and keeps its message for the secret check. */
async function expectError(fn: () => unknown, code: string): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    if (code === 'LOCKED') expect(e).toBeInstanceOf(LockedError);
    else {
      expect(e).toBeInstanceOf(VaultError);
      expect((e as VaultError).code).toBe(code);
    }
    errors.push((e as Error).message);
    return e as Error;
  }
  throw new Error(`expected ${code}`);
}

const fakeSafeStorage = fakeKeyring;

class FakeClock implements VaultClock {
  t = 1_700_000_000_000;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
  /** Moves the clock without firing timers: a machine waking from sleep before its timers run. */
  jump(ms: number): void {
    this.t += ms;
  }
}

async function passphraseVault(clock?: FakeClock): Promise<DeskVault> {
  const v = DeskVault.open({ path, scrypt: FAST_SCRYPT, platform: 'linux', ...(clock ? { clock } : {}) });
  await v.setPassphrase(undefined, PASS);
  return v;
}

/** Every form in which a secret could leak into a file or a message. */
function expectNoSecretIn(text: string): void {
  for (const c of [MAIN.key, MAIN.secret, SUB.key, SUB.secret, PASS]) {
    for (const f of [c, Buffer.from(c).toString('base64'), Buffer.from(c).toString('hex'), c.slice(4, 20)]) expect(text).not.toContain(f);
  }
}

describe('vault with a passphrase', () => {
  it('keeps profile secrets only sealed: neither file holds a key or secret in clear (profiles and vault, mode 0600)', async () => {
    const v = await passphraseVault();
    const store = new ProfileStore(join(dir, 'profiles.json'));
    store.save(PROFILE, v.box());
    for (const f of readdirSync(dir)) expectNoSecretIn(readFileSync(join(dir, f), 'utf8'));
    expect(readdirSync(dir).sort()).toEqual(['profiles.json', 'vault.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).protection.kdf).toMatchObject({ name: 'scrypt', N: FAST_SCRYPT.N, r: 8, p: 1 });
    expect(store.summaries()[0]).toMatchObject({ key_masked: 'AKma…cdef', sub_keys: [{ uid: '10001', key_masked: 'AKsu…4433' }] });
    // Secrets come out as Buffers (zeroed on lock), never as strings.
    expect(store.open('live1', v.box())).toMatchObject({
      credentials: { key: MAIN.key, secret: Buffer.from(MAIN.secret) },
      subKeys: [{ ...SUB, secret: Buffer.from(SUB.secret) }],
    });
    expect(v.status()).toEqual({
      locked: false,
      backend: 'passphrase',
      passphrase_set: true,
      keychain_note: expect.stringMatching(/^The system keyring is not available here\./),
      unlock_wait_ms: 0,
    });
  });

  it('starts locked after a restart, refuses a wrong passphrase with a clear error, opens with the right one', async () => {
    const v = await passphraseVault();
    const sealed = v.box().seal(MAIN.secret);
    const again = DeskVault.open({ path });
    expect(again.status()).toMatchObject({ locked: true, backend: 'passphrase', passphrase_set: true });
    await expectError(() => again.box(), 'LOCKED');
    const e = await expectError(() => again.unlock('correct horse battery stapler'), 'WRONG_PASSPHRASE');
    expect(e.message).toMatch(/passphrase is not the one this vault was set with/);
    await again.unlock(PASS);
    expect(again.box().open(sealed)).toBe(MAIN.secret);
  });

  it('says exactly what is wrong with a damaged vault file or an edited sealed secret', async () => {
    const v = await passphraseVault();
    const sealed = v.box().seal(MAIN.secret);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, text.length / 2));
    expect((await expectError(() => DeskVault.open({ path }), 'CORRUPT')).message).toMatch(/cannot be read as a vault/);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(text), version: 7 }));
    expect((await expectError(() => DeskVault.open({ path }), 'CORRUPT')).message).toMatch(/not in the vault's format \(at version/);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(text), check: 'ab'.repeat(32) }));
    expect((await expectError(() => DeskVault.open({ path }).unlock(PASS), 'CORRUPT')).message).toMatch(/does not match the vault file/);

    const parts = sealed.split('.');
    const edited = [...parts.slice(0, 3), Buffer.from('x'.repeat(20)).toString('base64')].join('.');
    expect((await expectError(() => v.box().open(edited), 'CORRUPT')).message).toMatch(/profiles file was changed/);
  });

  it("locks after the operator's idle time (injected clock), and on demand", async () => {
    const clock = new FakeClock();
    const v = await passphraseVault(clock);
    const sealed = v.box().seal(MAIN.secret);
    let changes = 0;
    v.onChange(() => changes++);
    v.setIdleMinutes(5);
    clock.advance(4 * 60_000);
    v.touch();
    clock.advance(4 * 60_000);
    expect(v.isLocked()).toBe(false);
    // Background signing is not the operator's activity: it does not hold the vault open.
    expect(v.box().open(sealed)).toBe(MAIN.secret);
    clock.advance(60_000 + 1);
    expect(changes).toBe(1);
    expect(v.status().locked).toBe(true);
    await expectError(() => v.box(), 'LOCKED');

    await v.unlock(PASS);
    const box = v.box();
    // Timers late (the machine slept): the limit still holds at the next use, even of a box kept open.
    clock.jump(6 * 60_000);
    await expectError(() => box.open(sealed), 'LOCKED');
    await v.unlock(PASS);
    v.lock();
    expect(v.isLocked()).toBe(true);
    await expectError(() => box.seal('x'), 'LOCKED');
  });

  it('signs nothing while locked: a client whose credentials come from the vault sends no request', async () => {
    let seen = 0;
    const server = createServer((_req, res) => {
      seen++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"total":{"amount":"0","currency":"USDT"},"details":{}}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const v = await passphraseVault();
      const sealed = v.box().seal(JSON.stringify(MAIN));
      const fromVault = () => JSON.parse(v.box().open(sealed)) as typeof MAIN;
      const credentials = {
        get key() {
          return fromVault().key;
        },
        get secret() {
          return fromVault().secret;
        },
      };
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
      const client = new ApiClient({ baseUrl, credentials, account: 'live1-main', limitsOff: true, maxReadAttempts: 1 });
      await client.request({ method: 'GET', path: '/wallet/total_balance' }, TotalBalance);
      expect(seen).toBe(1);
      v.lock();
      await expectError(() => client.request({ method: 'GET', path: '/wallet/total_balance' }, TotalBalance), 'LOCKED');
      expect(seen).toBe(1);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('changes the passphrase by rewrapping one key: the old passphrase stops working, sealed secrets stay readable', async () => {
    const v = await passphraseVault();
    const sealed = v.box().seal(SUB.secret);
    await expectError(() => v.setPassphrase('not the passphrase', 'a new long passphrase'), 'WRONG_PASSPHRASE');
    await expectError(() => v.setPassphrase(undefined, 'a new long passphrase'), 'WRONG_PASSPHRASE');
    // Even the right passphrase does not change (nor unlock) a locked vault: only unlock() unlocks.
    v.lock();
    await expectError(() => v.setPassphrase(PASS, 'a new long passphrase'), 'LOCKED');
    expect(v.isLocked()).toBe(true);
    await v.unlock(PASS);
    await v.setPassphrase(PASS, 'a new long passphrase');
    const again = DeskVault.open({ path });
    await expectError(() => again.unlock(PASS), 'WRONG_PASSPHRASE');
    await again.unlock('a new long passphrase');
    expect(again.box().open(sealed)).toBe(SUB.secret);
    expectNoSecretIn(readFileSync(path, 'utf8'));
  });

  it('refuses a short passphrase', async () => {
    await expectError(() => DeskVault.open({ path, scrypt: FAST_SCRYPT }).setPassphrase(undefined, 'short'), 'WEAK_PASSPHRASE');
  });
});

describe('vault with Electron safeStorage', () => {
  it('refuses the basic_text and unknown backends on Linux, says why, and falls back to a passphrase', async () => {
    for (const backend of ['basic_text', 'unknown']) {
      const v = DeskVault.open({ path, safeStorage: fakeSafeStorage(backend), platform: 'linux' });
      expect(v.status()).toMatchObject({ backend: null, locked: false, keychain_note: expect.stringContaining(`"${backend}" store`) });
      const e = await expectError(() => v.box(), 'SAFE_STORAGE_WEAK');
      expect(e.message).toMatch(/set a passphrase/);
      expect(readdirSync(dir)).toEqual([]);
    }
    await expectError(
      () => DeskVault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', randomBytes(32), false), platform: 'linux' }).box(),
      'SAFE_STORAGE_UNAVAILABLE',
    );
    await expectError(() => DeskVault.open({ path, platform: 'linux' }).box(), 'SAFE_STORAGE_UNAVAILABLE');

    const v = DeskVault.open({ path, safeStorage: fakeSafeStorage('basic_text'), platform: 'linux', scrypt: FAST_SCRYPT });
    await v.setPassphrase(undefined, PASS);
    expect(v.box().open(v.box().seal('x'))).toBe('x');
    expect(v.status()).toMatchObject({
      backend: 'passphrase',
      passphrase_set: true,
      keychain_note: expect.stringContaining('"basic_text" store'),
    });
  });

  it('wraps the key with a real keyring, opens itself at start, and says exactly what happened when the keyring changed', async () => {
    const keyring = randomBytes(32);
    const v = DeskVault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', keyring), platform: 'linux' });
    const sealed = v.box().seal(MAIN.secret);
    expect(v.status()).toEqual({ locked: false, backend: 'safeStorage', passphrase_set: false, keychain_note: null, unlock_wait_ms: 0 });
    expect(JSON.parse(readFileSync(path, 'utf8')).protection).toMatchObject({ kind: 'safe_storage', backend: 'gnome_libsecret' });
    expectNoSecretIn(readFileSync(path, 'utf8'));

    const same = DeskVault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', keyring), platform: 'linux' });
    expect(same.isLocked()).toBe(false);
    expect(same.box().open(sealed)).toBe(MAIN.secret);
    same.lock();
    await same.unlock('');
    expect(same.box().open(sealed)).toBe(MAIN.secret);

    const otherBackend = DeskVault.open({ path, safeStorage: fakeSafeStorage('kwallet5', keyring), platform: 'linux' });
    expect(otherBackend.status()).toMatchObject({
      locked: true,
      keychain_note: expect.stringMatching(/stored with the "gnome_libsecret" keyring, but the system now offers "kwallet5"/),
    });
    await expectError(() => otherBackend.unlock(''), 'KEYRING_CHANGED');

    const resetKeyring = DeskVault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', randomBytes(32)), platform: 'linux' });
    expect(resetKeyring.isLocked()).toBe(true);
    expect((await expectError(() => resetKeyring.unlock(''), 'KEYRING_CHANGED')).message).toMatch(/could not decrypt the vault's key/);
    await expectError(() => DeskVault.open({ path, platform: 'linux' }).unlock(''), 'SAFE_STORAGE_UNAVAILABLE');
  });

  it('moves from the keyring to a passphrase without resealing anything', async () => {
    const keyring = randomBytes(32);
    const v = DeskVault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', keyring), platform: 'linux', scrypt: FAST_SCRYPT });
    const sealed = v.box().seal(MAIN.secret);
    // Leaving the keychain must be confirmed by the operator, and only on an unlocked desk.
    await expectError(() => v.setPassphrase(undefined, PASS), 'INVALID_INPUT');
    v.lock();
    await expectError(() => v.setPassphrase(undefined, PASS, true), 'LOCKED');
    expect(JSON.parse(readFileSync(path, 'utf8')).protection.kind).toBe('safe_storage');
    expect(v.isLocked()).toBe(true);
    await v.unlock('');
    await v.setPassphrase(undefined, PASS, true);
    const again = DeskVault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', keyring), platform: 'linux' });
    expect(again.status()).toMatchObject({ locked: true, backend: 'passphrase' });
    await again.unlock(PASS);
    expect(again.box().open(sealed)).toBe(MAIN.secret);
  });
});

describe('vault messages', () => {
  it('never carry a key, a secret or the passphrase', () => {
    expect(errors.length).toBeGreaterThan(15);
    for (const m of errors) expectNoSecretIn(m);
  });
});
