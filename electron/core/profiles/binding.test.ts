import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../core.ts';
import { Session } from '../session.ts';
import { DeskVault } from '../vault/vault.ts';
import { InputError } from '../errors.ts';
import { ProfileStore } from './store.ts';

// Sealed secrets are bound to their profile's id, environment and base address; files sealed before
// the binding are re-sealed once, at the first unlock; secrets are Buffers, zeroed when the desk locks.

const FAST_SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const PASS = 'the operator passphrase';
const KEY = 'AKbindingKEY0123456789';
const SECRET = 'SECRETbinding0123456789abcdefABCDEF';
const PERMS = { spot: 'read', futures: 'none', delivery: 'none', wallet: 'write', withdraw: 'write', unified: false } as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'binding-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function vault(): Promise<DeskVault> {
  const v = DeskVault.open({ path: join(dir, 'vault.json'), scrypt: FAST_SCRYPT });
  await v.setPassphrase(undefined, PASS);
  return v;
}

/** profiles.json as the desk wrote it before bindings: version 1, the sealed part JSON with the secret in it. */
function legacyFile(v: DeskVault, baseUrl: string): string {
  const sealed = v.box().seal(JSON.stringify({ base_url: baseUrl, key: KEY, secret: SECRET, sub_keys: [] }));
  const doc = {
    version: 1,
    active_id: 'old1',
    profiles: [
      {
        id: 'old1',
        name: 'Old',
        environment: 'futures',
        base_url: baseUrl,
        svc: 'Svc',
        key_masked: 'AKbi…6789',
        permissions: PERMS,
        sub_keys: [],
        sealed,
      },
    ],
  };
  writeFileSync(join(dir, 'profiles.json'), JSON.stringify(doc));
  return sealed;
}

describe('sealed profile secrets', () => {
  it('re-seals a file from before the binding once, at the first unlock, and then refuses unbound blobs', async () => {
    const v = await vault();
    const legacy = legacyFile(v, 'http://127.0.0.1:9/api/v4');
    v.lock();
    const core = createCore({ dataDir: dir, vault: v, log: () => {} });
    try {
      expect(JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')).version).toBe(1);
      expect(await core.invoke('vaultUnlock', { passphrase: PASS })).toMatchObject({ ok: true });
      const doc = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'));
      expect(doc.version).toBe(2);
      expect(doc.profiles[0].sealed).toMatch(/^tdv2\./);
      const store = new ProfileStore(join(dir, 'profiles.json'));
      expect(store.open('old1', v.box()).credentials).toEqual({ key: KEY, secret: Buffer.from(SECRET) });
      // Putting the old unbound blob back (a backup copied into the folder) does not open any more.
      doc.profiles[0].sealed = legacy;
      writeFileSync(join(dir, 'profiles.json'), JSON.stringify(doc));
      expect(() => store.open('old1', v.box())).toThrow(/sealed without its binding/);
    } finally {
      await core.close();
    }
  });

  it('does not open after the environment was changed in the file, and an edit of the environment needs the key again', async () => {
    const v = await vault();
    const store = new ProfileStore(join(dir, 'profiles.json'));
    const input = {
      name: 'P',
      environment: 'futures' as const,
      base_url: 'https://fx.example/api/v4',
      svc: 'Svc',
      key: KEY,
      secret: SECRET,
      permissions: PERMS,
      sub_keys: [],
    };
    const p = store.resolve(input, v.box());
    store.save(p, v.box());
    expect(() => store.resolve({ ...input, id: p.id!, environment: 'live', key: undefined, secret: undefined }, v.box())).toThrow(
      InputError,
    );
    expect(() => store.resolve({ ...input, id: p.id!, environment: 'live', secret: undefined }, v.box())).toThrow(
      /environment changed.*secret again/,
    );
    // A name-only edit keeps the stored secret.
    expect(store.resolve({ ...input, id: p.id!, name: 'Renamed', key: undefined, secret: undefined }, v.box()).credentials.secret).toEqual(
      Buffer.from(SECRET),
    );
    const file = join(dir, 'profiles.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.profiles[0].environment = 'live';
    writeFileSync(file, JSON.stringify(doc));
    expect(() => store.open(p.id!, v.box())).toThrow(/could not be opened.*for this profile and address/);
  });

  it('holds the secret in a Buffer that locking zeroes', async () => {
    const v = await vault();
    const store = new ProfileStore(join(dir, 'profiles.json'));
    const p = store.resolve(
      {
        name: 'P',
        environment: 'futures',
        base_url: 'https://fx.example/api/v4',
        svc: 'Svc',
        key: KEY,
        secret: SECRET,
        permissions: PERMS,
        sub_keys: [{ uid: '123', key: 'AKsubKEY12345678', secret: 'SECRETsub0123456789abcdef' }],
      },
      v.box(),
    );
    store.save(p, v.box());
    store.setActive(p.id!);
    const sessions = new Session({ store, vault: v });
    const profile = sessions.active().profile;
    const secret = profile.credentials.secret as Buffer;
    const sub = profile.subKeys![0]!.secret as Buffer;
    expect(secret.toString()).toBe(SECRET);
    v.lock();
    expect(secret.every((b) => b === 0)).toBe(true);
    expect(sub.every((b) => b === 0)).toBe(true);
    expect(secret.length).toBe(SECRET.length);
    await sessions.close();
  });
});
