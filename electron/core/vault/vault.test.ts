import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../client/client.ts';
import { VaultError } from './errors.ts';
import { Vault, type SafeStorageLike, type VaultClock } from './vault.ts';

const FAST_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const MAIN = { key: 'AKmainKEY0123456789abcdef', secret: 'SECRETmain-9f8e7d6c5b4a39281706f5e4d3c2b1a0' };
const SUB = { key: 'AKsubKEY99887766554433', secret: 'SECRETsub-0a1b2c3d4e5f60718293a4b5c6d7e8f9' };
const PASS = 'correct horse battery staple';
const PROFILE = { id: 'live1', name: 'Live treasury', environment: 'live', base_url: 'https://api.example.com/api/v4' };

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

/** Runs fn, expects a VaultError with that code, and keeps its message for the secret check. */
async function expectVaultError(fn: () => unknown, code: string): Promise<VaultError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VaultError);
    expect((e as VaultError).code).toBe(code);
    errors.push((e as Error).message);
    return e as VaultError;
  }
  throw new Error(`expected ${code}`);
}

/** Like Electron's safeStorage: AES under a key held by "the keyring". */
function fakeSafeStorage(backend: string, keyring: Buffer = randomBytes(32), available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', keyring, iv);
      const data = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), data]);
    },
    decryptString(buf) {
      const d = createDecipheriv('aes-256-gcm', keyring, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
    },
  };
}

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

async function passphraseVault(clock?: FakeClock): Promise<Vault> {
  const v = Vault.open({ path, scrypt: FAST_SCRYPT, ...(clock ? { clock } : {}) });
  await v.initWithPassphrase(PASS);
  v.putProfile(PROFILE, [{ slot: 'main', ...MAIN }, { slot: 'sub:10001', ...SUB }]);
  return v;
}

/** Every representation of a secret that could leak into a file. */
function leakForms(s: string): string[] {
  return [s, Buffer.from(s).toString('base64'), Buffer.from(s).toString('hex'), s.slice(4, 20)];
}

function expectNoSecretIn(text: string): void {
  for (const c of [MAIN.key, MAIN.secret, SUB.key, SUB.secret, PASS]) for (const f of leakForms(c)) expect(text).not.toContain(f);
}

describe('vault with a passphrase', () => {
  it('stores secrets only encrypted, file mode 0600, written atomically', async () => {
    const v = await passphraseVault();
    const text = readFileSync(path, 'utf8');
    expectNoSecretIn(text);
    expect(text).toContain('"Live treasury"');
    expect(text).toContain('https://api.example.com/api/v4');
    expect(text).toContain('"key_masked": "AKma…cdef"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['vault.json']);
    expect(JSON.parse(text).protection.kdf).toMatchObject({ name: 'scrypt', N: FAST_SCRYPT.N, r: 8, p: 1 });
    expect(v.credentials('live1')).toEqual(MAIN);
    expect(v.credentials('live1', 'sub:10001')).toEqual(SUB);
  });

  it('shows only masked keys outside the core', async () => {
    const v = await passphraseVault();
    v.lock();
    const listed = JSON.stringify(v.profiles());
    expectNoSecretIn(listed);
    expect(v.profiles()[0]!.keys.map((k) => k.key_masked)).toEqual(['AKma…cdef', 'AKsu…4433']);
  });

  it('refuses a wrong passphrase with a clear error, and opens with the right one after a restart', async () => {
    (await passphraseVault()).lock();
    const again = Vault.open({ path });
    expect(again.status()).toMatchObject({ initialised: true, protection: 'passphrase', locked: true });
    const e = await expectVaultError(() => again.unlock('correct horse battery stapler'), 'WRONG_PASSPHRASE');
    expect(e.message).toMatch(/passphrase is not the one this vault was made with/);
    await expectVaultError(() => again.unlock(), 'WRONG_PASSPHRASE');
    await expectVaultError(() => again.credentials('live1'), 'LOCKED');
    await again.unlock(PASS);
    expect(again.credentials('live1')).toEqual(MAIN);
  });

  it('refuses a file whose clear part was edited (a base address pointed elsewhere)', async () => {
    (await passphraseVault()).lock();
    writeFileSync(path, readFileSync(path, 'utf8').replace('https://api.example.com', 'https://evil.example.net'));
    const e = await expectVaultError(() => Vault.open({ path }).unlock(PASS), 'TAMPERED');
    expect(e.message).toMatch(/changed outside the desk/);
  });

  it('refuses a damaged file with a message that says so', async () => {
    (await passphraseVault()).lock();
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, text.length / 2));
    const e = await expectVaultError(() => Vault.open({ path }), 'CORRUPT');
    expect(e.message).toMatch(/cannot be read as a vault/);
    writeFileSync(path, JSON.stringify({ ...JSON.parse(text), version: 7 }));
    expect((await expectVaultError(() => Vault.open({ path }), 'CORRUPT')).message).toMatch(/at version/);
  });

  it('locks after the operator\'s idle time (injected clock), and on demand', async () => {
    const clock = new FakeClock();
    const v = await passphraseVault(clock);
    const events: unknown[] = [];
    v.on((e) => events.push(e));
    v.setIdleLock(5 * 60_000);
    clock.advance(4 * 60_000);
    expect(v.credentials('live1').key).toBe(MAIN.key);
    clock.advance(4 * 60_000);
    expect(v.status().locked).toBe(false);
    clock.advance(60_000 + 1);
    expect(events).toEqual([{ locked: true, reason: 'idle' }]);
    await expectVaultError(() => v.credentials('live1'), 'LOCKED');

    await v.unlock(PASS);
    // Timers late (the machine slept): the limit still holds at the next use.
    clock.jump(6 * 60_000);
    await expectVaultError(() => v.credentials('live1'), 'LOCKED');
    await v.unlock(PASS);
    v.lock();
    expect(events.at(-1)).toEqual({ locked: true, reason: 'on demand' });
    await expectVaultError(() => v.credentials('live1'), 'LOCKED');
  });

  it('signs nothing while locked: a client over a locked vault sends no request', async () => {
    let seen = 0;
    const server = createServer((_req, res) => {
      seen++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"total":{"amount":"1","currency":"USDT"},"details":{}}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const v = await passphraseVault();
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`;
      const client = new ApiClient({ baseUrl, credentials: v.credentialsView('live1'), account: 'live1-main', limitsOff: true, maxReadAttempts: 1 });
      await client.request({ method: 'GET', path: '/wallet/total_balance' });
      expect(seen).toBe(1);
      v.lock();
      await expectVaultError(() => client.request({ method: 'GET', path: '/wallet/total_balance' }), 'LOCKED');
      expect(seen).toBe(1);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('changes the passphrase: the old one stops working, the keys stay', async () => {
    const v = await passphraseVault();
    await expectVaultError(() => v.changePassphrase('not the passphrase', 'a new long passphrase'), 'WRONG_PASSPHRASE');
    await v.changePassphrase(PASS, 'a new long passphrase');
    v.lock();
    const again = Vault.open({ path });
    await expectVaultError(() => again.unlock(PASS), 'WRONG_PASSPHRASE');
    await again.unlock('a new long passphrase');
    expect(again.credentials('live1', 'sub:10001')).toEqual(SUB);
    expectNoSecretIn(readFileSync(path, 'utf8'));
  });

  it('refuses a short passphrase', async () => {
    await expectVaultError(() => Vault.open({ path, scrypt: FAST_SCRYPT }).initWithPassphrase('short'), 'WEAK_PASSPHRASE');
  });
});

describe('vault with Electron safeStorage', () => {
  it('refuses the basic_text and unknown backends on Linux so the desk falls back to a passphrase', async () => {
    for (const backend of ['basic_text', 'unknown']) {
      const v = Vault.open({ path, safeStorage: fakeSafeStorage(backend), platform: 'linux' });
      const e = await expectVaultError(() => v.initWithSafeStorage(), 'SAFE_STORAGE_WEAK');
      expect(e.message).toContain(`"${backend}" backend`);
      expect(e.message).toMatch(/set a passphrase/);
    }
    await expectVaultError(() => Vault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', randomBytes(32), false), platform: 'linux' }).initWithSafeStorage(), 'SAFE_STORAGE_UNAVAILABLE');
    await expectVaultError(() => Vault.open({ path, platform: 'linux' }).initWithSafeStorage(), 'SAFE_STORAGE_UNAVAILABLE');
    // The fallback:
    const v = Vault.open({ path, safeStorage: fakeSafeStorage('basic_text'), platform: 'linux', scrypt: FAST_SCRYPT });
    await v.initWithPassphrase(PASS);
    expect(v.status().protection).toBe('passphrase');
  });

  it('keeps the master key wrapped by the keyring, and says exactly what happened when the keyring changed', async () => {
    const keyring = randomBytes(32);
    const v = Vault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', keyring), platform: 'linux' });
    await v.initWithSafeStorage();
    v.putProfile(PROFILE, [{ slot: 'main', ...MAIN }]);
    v.lock();
    expectNoSecretIn(readFileSync(path, 'utf8'));
    expect(JSON.parse(readFileSync(path, 'utf8')).protection).toMatchObject({ kind: 'safe_storage', backend: 'gnome_libsecret' });

    const same = Vault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', keyring), platform: 'linux' });
    await same.unlock();
    expect(same.credentials('live1')).toEqual(MAIN);

    const otherBackend = Vault.open({ path, safeStorage: fakeSafeStorage('kwallet5', keyring), platform: 'linux' });
    const e1 = await expectVaultError(() => otherBackend.unlock(), 'KEYRING_CHANGED');
    expect(e1.message).toMatch(/stored with the "gnome_libsecret" keyring, but safeStorage now uses "kwallet5"/);

    const resetKeyring = Vault.open({ path, safeStorage: fakeSafeStorage('gnome_libsecret', randomBytes(32)), platform: 'linux' });
    const e2 = await expectVaultError(() => resetKeyring.unlock(), 'KEYRING_CHANGED');
    expect(e2.message).toMatch(/could not decrypt the vault's key/);

    await expectVaultError(() => Vault.open({ path, platform: 'linux' }).unlock(), 'SAFE_STORAGE_UNAVAILABLE');
  });
});

describe('vault messages', () => {
  it('never carry a key, a secret or the passphrase', () => {
    expect(errors.length).toBeGreaterThan(10);
    for (const m of errors) expectNoSecretIn(m);
  });
});
