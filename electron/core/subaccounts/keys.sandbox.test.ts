import Database from 'better-sqlite3';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentView } from '../../../shared/ipc.ts';
import type { ManagedKey } from '../../../shared/incident.ts';
import { ApiClient } from '../client/client.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { ensureOperator, TEST_OPERATOR } from '../approvals/testkit/governed.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { DeskVault } from '../vault/vault.ts';

// "Create key" on a stored profile, against a real Sandbox: the exchange's answer carries the new key's
// secret, which goes into the vault for that sub-account's signing and nowhere else. The test records
// every answer and event the window could see and every log line, and reads the data folder: the secret
// (read from the Sandbox's own database) is in none of them, yet the sub-account's own transfer is signed
// with it, and only the sealed vault blob holds it.

const VAULT_PASS = 'vault passphrase for tests';
let core: Core & ConfirmCore;
const seen: string[] = [];
const logs: string[] = [];
let profileId = '';

const sb = useSandbox('subaccount-keys', { limits: false });
beforeAll(async () => {
  const vault = DeskVault.open({ path: join(sb.dir, 'desk', 'vault.json'), scrypt: { N: 2 ** 14, r: 8, p: 1 }, platform: 'linux' });
  core = createCore({ dataDir: join(sb.dir, 'desk'), vault, log: (l) => logs.push(l), coolingOffMs: 0 });
  core.subscribe((event, payload) => seen.push(`${event} ${JSON.stringify(payload)}`));
  await call('vaultSetPassphrase', { next: VAULT_PASS });
  const saved = await call<{ id: string }>('profileSave', {
    name: 'Treasury',
    environment: 'futures',
    base_url: sb.creds.base_url,
    svc: 'Svc',
    key: sb.creds.main.key,
    secret: sb.creds.main.secret,
    permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
    sub_keys: [],
  });
  profileId = saved.id;
  await call('profileSelect', { id: saved.id });
}, 60_000);
afterAll(async () => {
  await core?.close();
});

async function call<T = unknown>(channel: string, payload: unknown): Promise<T> {
  const r = await core.invoke(channel, payload);
  seen.push(`${channel} ${JSON.stringify(r)}`);
  if (!r.ok) throw new Error(r.error.message);
  return r.data as T;
}

async function governed(write: unknown): Promise<IntentView> {
  const operator = await ensureOperator(core, VAULT_PASS);
  const t = await call<{ ticket: string; ref: string }>('approvalsDraft', { write });
  const signed = await core.invokeConfirm('confirmSign', { ticket: t.ticket, operator, passphrase: TEST_OPERATOR.passphrase });
  seen.push(JSON.stringify(signed));
  for (let i = 0; i < 400; i++) {
    const v = (await call<{ items: IntentView[] }>('intentsList', {})).items.find((x) => x.id === t.ref);
    if (v && !['pending_approval', 'approved', 'in_flight', 'unconfirmed'].includes(v.state)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`write ${t.ref} did not settle`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const futuresUsdt = async (uid: string): Promise<string> => {
  const c = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
  const [row] = await c.request(
    { method: 'GET', path: '/wallet/sub_account_futures_balances', query: [['sub_uid', uid]] },
    z.array(z.looseObject({ available: z.record(z.string(), z.looseObject({ available: z.string() })) })),
  );
  return row?.available.usdt?.available ?? '0';
};

describe('Create key', () => {
  it("puts the new secret in the vault only: the sub-account's own transfer is signed with it, and no answer, event, log or file in clear holds it", async () => {
    const uid = sb.creds.sub_accounts[1]!.uid;
    const made = await governed({
      kind: 'sub_account_key_create',
      input: {
        user_id: uid,
        label: 'ops',
        perms: [
          { name: 'wallet', read_only: false },
          { name: 'futures', read_only: false },
          { name: 'spot', read_only: false },
        ],
      },
    });
    expect(made.state).toBe('done');

    const keys = await call<ManagedKey[]>('subAccountKeys', { user_id: uid });
    const mine = keys.find((k) => k.desk_signs)!;
    expect(mine.name).toBe(made.client_id);
    expect(mine.perms.map((p) => p.name).sort()).toEqual(['futures', 'spot', 'wallet']);
    const db = new Database(join(sb.dir, 'sandbox', 'sandbox.sqlite'), { readonly: true });
    const { secret } = db.prepare('SELECT secret FROM api_keys WHERE key = ?').get(mine.key) as { secret: string };
    db.close();
    expect(secret.length).toBeGreaterThan(16);

    const before = await futuresUsdt(uid);
    const moved = await governed({
      kind: 'sub_own_transfer',
      input: { sub_account: uid, currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '3' },
    });
    expect(moved).toMatchObject({ state: 'done', signer: uid });
    expect(Number(await futuresUsdt(uid)) - Number(before)).toBe(3);

    const { profiles } = await call<{ profiles: { id: string; sub_keys: { uid: string; key_masked: string }[] }[] }>('profilesList', {});
    expect(profiles.find((p) => p.id === profileId)!.sub_keys).toEqual([expect.objectContaining({ uid, key_masked: mine.key_masked })]);

    for (const line of [...seen, ...logs]) expect(line).not.toContain(secret);
    for (const f of filesUnder(join(sb.dir, 'desk'))) expect(readFileSync(f, 'latin1'), f).not.toContain(secret);
  });
});
