import Decimal from 'decimal.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileStore } from '../profiles/store.ts';
import { Session as Sessions, type ActiveSession } from '../session.ts';
import { DeskVault } from '../vault/vault.ts';
import type { BucketState } from './scheduler.ts';
import { z } from 'zod';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// Sub-account keys sign their own requests, against a real Sandbox with its limits on: a stored profile
// holds the main key, two sub-accounts' keys from credentials.json and a third sub-account key that the
// Sandbox made wallet read-only.

type Key = { uid: string; key: string; secret: string };
let store: ProfileStore;
let sessions: Sessions;
let s: ActiveSession;
let readOnlySub: Key;
const busy: BucketState[] = [];

const sb = useSandbox('subkeys');
beforeAll(async () => {
  const third = sb.creds.sub_accounts[2]!;
  const made = await adminCall<{ key: string; secret: string }>(sb.creds, 'POST', '/keys', {
    uid: third.uid,
    perms: { spot: 'write', wallet: 'read' },
    label: 'wallet read-only',
  });
  readOnlySub = { uid: third.uid, ...made };
  const vault = DeskVault.open({ path: join(sb.dir, 'vault.json'), scrypt: { N: 2 ** 14, r: 8, p: 1 } });
  await vault.setPassphrase(undefined, 'passphrase for tests');
  store = new ProfileStore(join(sb.dir, 'profiles.json'));
  sessions = new Sessions({ store, vault, onBusyBuckets: (b) => busy.push(...b) });
  const [a, b] = sb.creds.sub_accounts;
  const saved = await sessions.save({
    name: 'With sub keys',
    environment: 'futures',
    base_url: sb.creds.base_url,
    svc: 'Svc',
    key: sb.creds.main.key,
    secret: sb.creds.main.secret,
    permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
    sub_keys: [a!, b!, readOnlySub].map((k) => ({ uid: k.uid, key: k.key, secret: k.secret })),
  });
  sessions.select(saved.id);
  s = sessions.active();
}, 60_000);
afterAll(async () => {
  await sessions?.close();
});

type SpotRow = { currency: string; available: string };
const usdt = (rows: SpotRow[]) => new Decimal(rows.find((r) => r.currency === 'USDT')?.available ?? '0');

describe('sub-account keys that sign', () => {
  it("a sub-account key reads and moves that sub-account's own money, not the main account's", async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const sub = s.subKeys.client(uid);
    const spot0 = usdt(await sub.request({ method: 'GET', path: '/spot/accounts', query: [['currency', 'USDT']] }, z.any()));
    const seenByMain = await s.client.request({ method: 'GET', path: '/wallet/sub_account_balances', query: [['sub_uid', uid]] }, z.any());
    expect(spot0.toFixed()).toBe(new Decimal(seenByMain[0]!.available.USDT ?? '0').toFixed());
    const main0 = usdt(await s.client.request({ method: 'GET', path: '/spot/accounts', query: [['currency', 'USDT']] }, z.any()));
    const fut0 = new Decimal((await sub.request({ method: 'GET', path: '/futures/usdt/accounts' }, z.any())).available);

    await sub.request(
      {
        method: 'POST',
        path: '/wallet/transfers',
        body: { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '3' },
        priority: 'action',
      },
      z.any(),
    );

    expect(usdt(await sub.request({ method: 'GET', path: '/spot/accounts', query: [['currency', 'USDT']] }, z.any())).toFixed()).toBe(
      spot0.minus(3).toFixed(),
    );
    expect((await sub.request({ method: 'GET', path: '/futures/usdt/accounts' }, z.any())).available).toBe(fut0.plus(3).toFixed());
    expect(usdt(await s.client.request({ method: 'GET', path: '/spot/accounts', query: [['currency', 'USDT']] }, z.any())).toFixed()).toBe(
      main0.toFixed(),
    );
  });

  it('each UID draws on its own §8.2 buckets in the one scheduler', async () => {
    busy.length = 0;
    const [a, b] = sb.creds.sub_accounts.map((k) => s.subKeys.client(k.uid));
    const req = { method: 'GET' as const, path: '/spot/accounts' };
    await Promise.all([s.client.request(req, z.any()), a!.request(req, z.any()), b!.request(req, z.any())]);
    const keys = new Set(busy.filter((x) => x.key.endsWith('GET /spot/accounts')).map((x) => x.key.split('|')[0]));
    expect(keys.size).toBe(3);
    expect(keys).toContain(`uid:${sb.creds.sub_accounts[0]!.uid}`);
    expect(keys).toContain(`uid:${sb.creds.sub_accounts[1]!.uid}`);
  });

  it("a refusal of a sub-account key corrects that key's permissions only", async () => {
    const refused = s.subKeys
      .client(readOnlySub.uid)
      .request(
        { method: 'POST', path: '/wallet/transfers', body: { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' } },
        z.any(),
      );
    await expect(refused).rejects.toMatchObject({ label: 'READ_ONLY' });
    const summary = store.summaries().find((p) => p.name === 'With sub keys')!;
    expect(summary.sub_keys.find((k) => k.uid === readOnlySub.uid)!.permissions?.wallet).toBe('read');
    expect(summary.sub_keys.find((k) => k.uid === sb.creds.sub_accounts[0]!.uid)!.permissions).toBeUndefined();
    expect(summary.permissions.wallet).toBe('write');
  });

  it('a sub-account without a key in the profile gets a clear error', () => {
    expect(() => s.subKeys.client('99999999')).toThrow(/no key for sub-account 99999999/);
  });
});
