import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '../../shared/ipc.ts';
import type { ConfirmCore, Core } from './core.ts';
import { openDesk } from './desk.ts';
import { useSandbox } from './testkit/sandbox.ts';
import { adminCall } from './testkit/sandboxAdmin.ts';

// The permission correction is a property of the key's client, not of one door into it: a refusal met
// by a read nobody asked for (the history sync that starts with a profile) corrects the declared
// permission as a page's read would. Real desk core, real Sandbox.

const sb = useSandbox('desk-refusal');
let core: Core & ConfirmCore;

beforeAll(() => {
  core = openDesk({ home: join(sb.dir, 'home'), sandboxCredentialsPath: sb.credentialsPath, log: () => {} });
});
afterAll(async () => {
  await core?.close();
});

async function profile(id: string): Promise<ProfileSummary> {
  const list = await core.invoke('profilesList', {});
  return (list as { data: { profiles: ProfileSummary[] } }).data.profiles.find((p) => p.id === id)!;
}

describe('a refusal met by a background read', () => {
  it("corrects the profile's declared permission without any page asking", async () => {
    expect((await core.invoke('vaultSetPassphrase', { next: 'passphrase for tests' })).ok).toBe(true);
    const sub = sb.creds.sub_accounts[0]!;
    const saved = await core.invoke('profileSave', {
      name: 'Sub-account key',
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
    // The main account turns the sub-account's wallet area off (§5.5) after the key was saved.
    await adminCall(sb.creds, 'PUT', `/accounts/${sub.uid}/areas`, { areas: ['spot', 'futures'] });
    // Selecting the profile starts its history sync in the background (GET /wallet/withdrawals and the
    // other wallet histories); no channel that reads is invoked.
    expect((await core.invoke('profileSelect', { id })).ok).toBe(true);
    await expect.poll(async () => (await profile(id)).permissions.wallet, { timeout: 20_000, interval: 100 }).toBe('none');
    expect((await profile(id)).permissions).toMatchObject({ spot: 'read', futures: 'read' });
  });
});
