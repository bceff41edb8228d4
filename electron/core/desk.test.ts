import { readSandboxCredentials } from './profiles/sandbox.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload, ProfileSummary } from '../../shared/ipc.ts';
import { sendGoverned, signGoverned } from './approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from './core.ts';
import { openDesk } from './desk.ts';
import { useSandbox } from './testkit/sandbox.ts';

// The desk's core as the hosts run it, against a real Sandbox with its limits on.

let core: Core & ConfirmCore;
const busy: EventPayload<'rateLimits'>[] = [];
const profileEvents: unknown[] = [];

const sb = useSandbox('desk-core');
beforeAll(async () => {
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {}, coolingOffMs: 0 });
  core.subscribe((event, payload) => {
    if (event === 'rateLimits') busy.push(payload as EventPayload<'rateLimits'>);
    if (event === 'profiles') profileEvents.push(payload);
  });
});
afterAll(async () => {
  await core?.close();
});

describe('the core over a real Sandbox', () => {
  it("queues past a bucket's limit instead of drawing a 429, and tells the renderer", async () => {
    // GET /wallet/total_balance allows 80 per 10 s (§8.2): 84 at once must wait, not fail.
    const replies = await Promise.all(Array.from({ length: 84 }, () => core.invoke('totalBalance', {})));
    expect(replies.filter((r) => !r.ok)).toEqual([]);
    const queued = busy.flatMap((e) => e.buckets).filter((b) => b.key.includes('/wallet/total_balance') && b.queued > 0);
    expect(queued.length).toBeGreaterThan(0);
    expect(queued[0]!.limit).toBe(80);
  }, 40_000);

  it('corrects a declared permission when the exchange answers READ_ONLY', async () => {
    expect((await core.invoke('vaultSetPassphrase', { next: 'passphrase for tests' })).ok).toBe(true);
    const saved = await core.invoke('profileSave', {
      name: 'Declared too much',
      environment: 'futures',
      base_url: sb.creds.base_url,
      svc: 'Svc',
      key: sb.creds.read_only.key,
      secret: sb.creds.read_only.secret,
      permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
      sub_keys: [],
    });
    expect(saved.ok).toBe(true);
    const id = (saved as { data: ProfileSummary }).data.id;
    await core.invoke('profileSelect', { id });
    // A transfer, not a withdrawal: a live profile's new destination waits the full cooling-off.
    const sent = await sendGoverned(
      core,
      { kind: 'main_sub_transfer', input: { sub_account: sb.creds.sub_accounts[0]!.uid, currency: 'USDT', amount: '15', direction: 'to' } },
      'passphrase for tests',
    );
    expect(sent).toMatchObject({ state: 'refused', label: 'READ_ONLY' });
    const list = await core.invoke('profilesList', {});
    const profile = (list as { data: { profiles: ProfileSummary[] } }).data.profiles.find((p) => p.id === id)!;
    expect(profile.permissions.wallet).toBe('read');
    expect(profile.permissions.withdraw).toBe('write');
    expect(profileEvents.length).toBeGreaterThan(0);
  });

  it('corrects a declared permission when a read is refused with FORBIDDEN', async () => {
    const sub = sb.creds.sub_accounts[0]!;
    const saved = await core.invoke('profileSave', {
      name: 'Sub-account',
      environment: 'futures',
      base_url: sb.creds.base_url,
      svc: 'Svc',
      key: sub.key,
      secret: sub.secret,
      permissions: { spot: 'read', futures: 'read', delivery: 'read', wallet: 'read', withdraw: 'none', unified: false },
      sub_keys: [],
    });
    expect(saved).toMatchObject({ ok: true });
    const id = (saved as { data: ProfileSummary }).data.id;
    await core.invoke('profileSelect', { id });
    // The main account turns the sub-account's wallet area off (§5.5): its key may no longer read the wallet.
    const areas = (list: string[] | null) =>
      fetch(`${sb.creds.admin_url}/accounts/${sub.uid}/areas`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${sb.creds.admin_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ areas: list }),
      });
    expect((await areas(['spot', 'futures'])).ok).toBe(true);
    try {
      const events = profileEvents.length;
      const reply = await core.invoke('totalBalance', {});
      expect(reply).toMatchObject({ ok: false, error: { kind: 'exchange', label: 'FORBIDDEN' } });
      const list = await core.invoke('profilesList', {});
      const profile = (list as { data: { profiles: ProfileSummary[] } }).data.profiles.find((p) => p.id === id)!;
      expect(profile.permissions).toMatchObject({ wallet: 'none', spot: 'read', futures: 'read' });
      expect(profileEvents.length).toBeGreaterThan(events);
    } finally {
      await areas(null);
    }
  });

  // Runs after the tests above saved stored profiles and signed their destination under the vault's
  // governance: the Sandbox profile's book is its own, so its operator signs the same address again.
  it('keeps working when the desk is locked and unlocked while a withdrawal is still in flight', async () => {
    const admin = readSandboxCredentials(sb.credentialsPath);
    await fetch(`${admin.admin_url}/faults`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin.admin_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', latency_ms: 4000, path: '/withdrawals', method: 'POST', times: 1 }),
    });
    await core.invoke('profileSelect', { id: 'sandbox' });
    const id = await signGoverned(core, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '12' },
    });
    const intent = { id, client_id: id };
    await expect
      .poll(
        async () =>
          ((await core.invoke('intentsList', {})) as { data: { items: { id: string; state: string }[] } }).data.items.find(
            (i) => i.id === id,
          )?.state,
        { timeout: 15_000, interval: 50 },
      )
      .toBe('in_flight');
    expect((await core.invoke('vaultLock', {})).ok).toBe(true);
    expect((await core.invoke('vaultUnlock', { passphrase: 'passphrase for tests' })).ok).toBe(true);
    expect((await core.invoke('intentsList', {})).ok).toBe(true);
    await expect
      .poll(
        async () => {
          const list = await core.invoke('intentsList', {});
          return (list as { data: { items: Array<{ id: string; state: string }> } }).data.items.find((i) => i.id === intent.id)?.state;
        },
        { timeout: 20_000 },
      )
      .toMatch(/accepted|done/);
    const key = readSandboxCredentials(sb.credentialsPath).main;
    const { createHash, createHmac } = await import('node:crypto');
    const path = '/api/v4/wallet/withdrawals';
    const query = `withdraw_order_id=${intent.client_id}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const sign = createHmac('sha512', key.secret)
      .update(['GET', path, query, createHash('sha512').update('').digest('hex'), ts].join('\n'))
      .digest('hex');
    const res = await fetch(`${new URL(sb.creds.base_url).origin}${path}?${query}`, {
      headers: { KEY: key.key, Timestamp: ts, SIGN: sign },
    });
    expect(await res.json()).toHaveLength(1);
  }, 40_000);
});
