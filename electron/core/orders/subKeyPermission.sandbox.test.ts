import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { ProfileSummary } from '../../../shared/ipc.ts';
import { sendGoverned } from '../approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// An order for a sub-account is signed by that sub-account's key, so whether it may be drafted depends on
// what the desk learned of that key, not on the main key. Real desk core, real Sandbox: the Sandbox makes
// one sub-account's key spot read-only; the desk learns it from the refusal of a first order and then
// refuses, before drafting, every order signed by that key, while the other keys still trade; and a main
// key that cannot trade does not stop an order its sub-account's key signs.

const PASSPHRASE = 'passphrase for tests';
let core: Core & ConfirmCore;
let readOnly: { uid: string; key: string; secret: string };

const order = (sub_uid?: string) => ({
  kind: 'spot_order' as const,
  input: {
    currency_pair: 'BTC_USDT',
    side: 'buy' as const,
    type: 'limit' as const,
    account: 'spot' as const,
    amount: '0.001',
    price: '1000',
    time_in_force: 'gtc' as const,
    ...(sub_uid ? { sub_uid } : {}),
  },
});

const sb = useSandbox('sub-spot-perm', { limits: false });
beforeAll(async () => {
  const uid = sb.creds.sub_accounts[1]!.uid;
  const made = await fetch(`${sb.creds.admin_url}/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sb.creds.admin_token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ uid, perms: { spot: 'read', wallet: 'write' }, label: 'spot read-only' }),
  });
  expect(made.ok).toBe(true);
  const { key, secret } = (await made.json()) as { key: string; secret: string };
  readOnly = { uid, key, secret };
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
  expect((await core.invoke('vaultSetPassphrase', { next: PASSPHRASE })).ok).toBe(true);
  const full = sb.creds.sub_accounts[0]!;
  const saved = await core.invoke('profileSave', {
    name: 'Trades with sub keys',
    environment: 'futures',
    base_url: sb.creds.base_url,
    svc: 'Svc',
    key: sb.creds.main.key,
    secret: sb.creds.main.secret,
    permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
    sub_keys: [{ uid: full.uid, key: full.key, secret: full.secret }, readOnly],
  });
  expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true });
  await core.invoke('profileSelect', { id: (saved as { data: ProfileSummary }).data.id });
}, 60_000);
afterAll(async () => {
  await core?.close();
});

async function tickets(): Promise<number> {
  const st = await core.invokeConfirm('confirmState', {});
  return (st as { data: ConfirmState }).data.tickets.length;
}

describe("spot orders signed by a sub-account's key", () => {
  it('once the exchange refused that key a spot write, its orders are refused before drafting, naming the key; the other keys still trade', async () => {
    const first = await sendGoverned(core, { kind: 'spot_order', input: order(readOnly.uid).input }, PASSPHRASE);
    expect(first).toMatchObject({ state: 'refused', label: 'READ_ONLY', signer: readOnly.uid });

    const profiles = ((await core.invoke('profilesList', {})) as { data: { profiles: ProfileSummary[] } }).data.profiles;
    const profile = profiles.find((p) => p.name === 'Trades with sub keys')!;
    const key = profile.sub_keys.find((k) => k.uid === readOnly.uid)!;
    expect(key.permissions?.spot).toBe('read');
    expect(profile.permissions.spot).toBe('write');

    const before = await tickets();
    const sentence = new RegExp(
      `Sub-account ${readOnly.uid}'s key ${key.key_masked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot trade \\(spot permission: read`,
    );
    expect(await core.invoke('approvalsReview', { write: order(readOnly.uid) })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(sentence) },
    });
    expect(await core.invoke('approvalsDraft', { write: order(readOnly.uid) })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(sentence) },
    });
    expect(
      await core.invoke('approvalsDraft', {
        write: { kind: 'spot_cancel_all', input: { currency_pair: 'BTC_USDT', sub_uid: readOnly.uid } },
      }),
    ).toMatchObject({ ok: false, error: { message: expect.stringMatching(sentence) } });
    expect(await tickets()).toBe(before);

    // The main key and the other sub-account's key were never refused: their orders are reviewed as before.
    expect(await core.invoke('approvalsReview', { write: order(sb.creds.sub_accounts[0]!.uid) })).toMatchObject({ ok: true });
    expect(await core.invoke('approvalsReview', { write: order() })).toMatchObject({ ok: true });
  }, 60_000);

  it("is judged by the sub-account's key, not by the main key: a main key that cannot trade does not stop a sub-account's order", async () => {
    const full = sb.creds.sub_accounts[0]!;
    const saved = await core.invoke('profileSave', {
      name: 'Main key without spot',
      environment: 'futures',
      base_url: sb.creds.base_url,
      svc: 'Svc',
      key: sb.creds.main.key,
      secret: sb.creds.main.secret,
      permissions: { spot: 'read', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
      sub_keys: [{ uid: full.uid, key: full.key, secret: full.secret }],
    });
    expect(saved, JSON.stringify(saved)).toMatchObject({ ok: true });
    await core.invoke('profileSelect', { id: (saved as { data: ProfileSummary }).data.id });
    expect(await core.invoke('approvalsReview', { write: order() })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/This profile's key cannot trade \(spot permission: read\)/) },
    });
    expect(await core.invoke('approvalsReview', { write: order(full.uid) })).toMatchObject({ ok: true, data: { signer: full.uid } });
  }, 60_000);
});
