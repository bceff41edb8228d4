import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from './core.ts';
import { fakeKeyring, recordingExchange, type RecordingExchange } from './testkit/recordingExchange.ts';
import { DeskVault } from './vault/vault.ts';

// The key-handling channels called as a script in the window would call them (core.invoke with an
// untrusted payload). The adversaries: a script in the window, a relay between desk and exchange, and
// someone who can write the data folder.

const FAST_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const PASS = 'the operator passphrase';
const KEY = 'AKrelayTESTkey0123456789';
const SECRET = 'SECRETrelay0123456789abcdefABCDEF0123456789';
const PERMS = { spot: 'read', futures: 'none', delivery: 'none', wallet: 'write', withdraw: 'write', unified: false };

let dir: string;
let exchange: RecordingExchange;
let relay: RecordingExchange;
let core: Core;
let vaultPath: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-keys-'));
  vaultPath = join(dir, 'vault.json');
  exchange = await recordingExchange();
  relay = await recordingExchange();
});
afterEach(async () => {
  await core?.close();
  await exchange.close();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(keyring = false): Core {
  const vault = DeskVault.open({
    path: vaultPath,
    scrypt: FAST_SCRYPT,
    platform: 'linux',
    ...(keyring ? { safeStorage: fakeKeyring() } : {}),
  });
  core = createCore({ dataDir: dir, vault, log: () => {} });
  return core;
}

const profile = (extra: Record<string, unknown> = {}) => ({
  name: 'Treasury',
  environment: 'futures',
  base_url: exchange.baseUrl,
  svc: 'Svc',
  permissions: PERMS,
  sub_keys: [],
  ...extra,
});

async function saved(c: Core, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await c.invoke('profileSave', profile({ key: KEY, secret: SECRET, ...extra }));
  expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
  return (r as { data: { id: string } }).data.id;
}

describe('a profile edit keeps the key where it was entered', () => {
  it('refuses a base-address-only edit: nothing signed reaches the new address', async () => {
    const c = start();
    expect(await c.invoke('vaultSetPassphrase', { next: PASS })).toMatchObject({ ok: true });
    const id = await saved(c);
    expect(exchange.signed().map((r) => r.key)).toEqual([KEY]);

    const moved = await c.invoke('profileSave', profile({ id, base_url: relay.baseUrl }));
    expect(moved).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_request',
        path: ['key'],
        message: expect.stringMatching(/base address changed.*enter the API key and secret again/),
      },
    });
    const withKeyOnly = await c.invoke('profileSave', profile({ id, base_url: relay.baseUrl, key: KEY }));
    expect(withKeyOnly).toMatchObject({ ok: false, error: { path: ['secret'] } });
    // The profile still points at the exchange, and using it signs there only.
    await c.invoke('profileSelect', { id });
    await c.invoke('totalBalance', {});
    // The total, and whatever the history and balance services read in the background: all at the exchange.
    expect(
      exchange
        .signed()
        .filter((r) => r.url.includes('/wallet/total_balance'))
        .map((r) => r.key),
    ).toEqual([KEY, KEY]);
    expect(new Set(exchange.signed().map((r) => r.key))).toEqual(new Set([KEY]));
    expect(relay.signed()).toEqual([]);
    expect(
      ((await c.invoke('profilesList', {})) as { data: { profiles: Array<{ id: string; base_url: string }> } }).data.profiles.find(
        (p) => p.id === id,
      )!.base_url,
    ).toBe(exchange.baseUrl);

    // Entered again on purpose, the key goes where the operator says.
    expect(await c.invoke('profileSave', profile({ id, base_url: relay.baseUrl, key: KEY, secret: SECRET }))).toMatchObject({ ok: true });
    expect(
      relay
        .signed()
        .filter((r) => r.url.includes('/wallet/total_balance'))
        .map((r) => r.key),
    ).toEqual([KEY]);
  });

  it('takes only https:// for live and simulated-trading profiles', async () => {
    const c = start();
    await c.invoke('vaultSetPassphrase', { next: PASS });
    for (const environment of ['live', 'testnet']) {
      const r = await c.invoke('profileSave', profile({ environment, base_url: relay.baseUrl, key: KEY, secret: SECRET }));
      expect(r).toMatchObject({
        ok: false,
        error: { kind: 'invalid_request', path: ['base_url'], message: expect.stringContaining('https://') },
      });
    }
    const remote = await c.invoke('profileSave', profile({ base_url: 'http://exchange.example/api/v4', key: KEY, secret: SECRET }));
    expect(remote).toMatchObject({ ok: false, error: { path: ['base_url'] } });
    expect(relay.seen).toEqual([]);
  });

  it('does not open a sealed key moved to another profile or another address in profiles.json', async () => {
    const c = start();
    await c.invoke('vaultSetPassphrase', { next: PASS });
    const a = await saved(c, { name: 'A' });
    const b = await c.invoke(
      'profileSave',
      profile({ name: 'B', key: 'AKotherKEY987654321', secret: 'SECRETother0000111122223333444455556666' }),
    );
    const bId = (b as { data: { id: string } }).data.id;
    const file = join(dir, 'profiles.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    const sealedA = doc.profiles.find((p: { id: string }) => p.id === a).sealed;
    // Someone who can write the folder gives B the sealed key of A (same exchange, same environment).
    doc.profiles.find((p: { id: string }) => p.id === bId).sealed = sealedA;
    // ...and points A, with its own sealed key, at the relay.
    doc.profiles.find((p: { id: string }) => p.id === a).base_url = relay.baseUrl;
    writeFileSync(file, JSON.stringify(doc));
    const before = exchange.signed().length;

    await c.invoke('profileSelect', { id: bId });
    expect(await c.invoke('totalBalance', {})).toMatchObject({ ok: false });
    await c.invoke('profileSelect', { id: a });
    expect(await c.invoke('totalBalance', {})).toMatchObject({ ok: false });
    expect(exchange.signed().length).toBe(before);
    expect(relay.seen).toEqual([]);
  });
});

describe('only an unlock unlocks', () => {
  it('vaultSetPassphrase on a locked keychain desk neither unlocks it nor takes it over', async () => {
    const c = start(true);
    await saved(c); // the first secret makes a keychain vault
    expect(((await c.invoke('vaultStatus', {})) as { data: { backend: string } }).data.backend).toBe('safeStorage');
    await c.invoke('vaultLock', {});
    const signedBefore = exchange.signed().length;

    for (const payload of [
      { next: 'attacker passphrase' },
      { next: 'attacker passphrase', leave_keychain: true },
      { current: '', next: 'attacker passphrase', leave_keychain: true },
    ]) {
      const r = await c.invoke('vaultSetPassphrase', payload);
      expect(r).toMatchObject({ ok: false, error: { kind: 'locked', message: expect.stringMatching(/Unlock it first/) } });
    }
    expect(await c.invoke('vaultStatus', {})).toMatchObject({ ok: true, data: { locked: true, backend: 'safeStorage' } });
    expect(JSON.parse(readFileSync(vaultPath, 'utf8')).protection.kind).toBe('safe_storage');
    expect(await c.invoke('totalBalance', {})).toMatchObject({ ok: false, error: { kind: 'locked' } });
    expect(exchange.signed().length).toBe(signedBefore);

    // Unlocked by the keychain, the move to a passphrase still needs the operator's confirmation.
    expect(await c.invoke('vaultUnlock', { passphrase: '' })).toMatchObject({ ok: true, data: { locked: false } });
    expect(await c.invoke('vaultSetPassphrase', { next: PASS })).toMatchObject({
      ok: false,
      error: { label: 'INVALID_INPUT', message: expect.stringMatching(/must be confirmed/) },
    });
    expect(await c.invoke('vaultSetPassphrase', { next: PASS, leave_keychain: true })).toMatchObject({
      ok: true,
      data: { backend: 'passphrase', locked: false },
    });
  });

  it('vaultSetPassphrase on a locked passphrase desk is refused even with the right current passphrase', async () => {
    const c = start();
    await c.invoke('vaultSetPassphrase', { next: PASS });
    const id = await saved(c);
    await c.invoke('vaultLock', {});
    const before = readFileSync(vaultPath, 'utf8');
    expect(await c.invoke('vaultSetPassphrase', { current: PASS, next: 'a brand new passphrase' })).toMatchObject({
      ok: false,
      error: { kind: 'locked' },
    });
    expect(await c.invoke('vaultSetPassphrase', { next: 'a brand new passphrase' })).toMatchObject({
      ok: false,
      error: { kind: 'locked' },
    });
    expect(readFileSync(vaultPath, 'utf8')).toBe(before);
    expect(await c.invoke('vaultStatus', {})).toMatchObject({ data: { locked: true } });
    // Nor can a locked desk lose a profile.
    expect(await c.invoke('profileRemove', { id })).toMatchObject({ ok: false, error: { kind: 'locked' } });
    expect(((await c.invoke('profilesList', {})) as { data: { profiles: unknown[] } }).data.profiles).toHaveLength(1);
  });
});
