import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../shared/money.ts';
import { ProfileStore } from '../profiles/store.ts';
import { Session, type ActiveSession } from '../session.ts';
import { DeskVault } from '../vault/vault.ts';
import { readBalances } from './balances.ts';
import { BatchRun } from './batch.ts';
import { plan } from './planner.ts';
import type { AccountRef } from './route.ts';
import { preApproved } from './testkit/preApproved.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { SESSION_WRITES } from '../testkit/sandboxCore.ts';

// A rebalance into a sub-account's isolated margin account: the plan's extra hop (its spot account into
// its margin account) is signed by that sub-account's key, through the session's executor, and the
// Sandbox's balances afterwards are the plan's.

let session: Session;
let s: ActiveSession;

const sb = useSandbox('rebalance-margin');
beforeAll(async () => {
  const vault = DeskVault.open({ path: join(sb.dir, 'vault.json'), scrypt: { N: 2 ** 14, r: 8, p: 1 } });
  await vault.setPassphrase(undefined, 'passphrase for tests');
  session = new Session({
    ...SESSION_WRITES,
    store: new ProfileStore(join(sb.dir, 'profiles.json')),
    vault,
    journalDir: join(sb.dir, 'journals'),
    settleMs: () => 500,
  });
  const keyed = sb.creds.sub_accounts[0]!;
  const saved = await session.save({
    name: 'Rebalance with a sub key',
    environment: 'futures',
    base_url: sb.creds.base_url,
    svc: 'Svc',
    key: sb.creds.main.key,
    secret: sb.creds.main.secret,
    permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
    sub_keys: [{ uid: keyed.uid, key: keyed.key, secret: keyed.secret }],
  });
  session.select(saved.id);
  s = session.active();
  // Nothing is sent before the journal is reconciled with the exchange.
  for (let i = 0; i < 600 && session.reconcileHold(s.id) !== null; i++) await new Promise((r) => setTimeout(r, 50));
  expect(session.reconcileHold(s.id)).toBeNull();
}, 60_000);
afterAll(async () => {
  await session?.close();
});

describe("a rebalance leg into a sub-account's margin account", () => {
  it("goes sub to main to sub, then the extra hop signed by the receiving sub-account's key; the targets are met", async () => {
    const keyed = sb.creds.sub_accounts[0]!.uid;
    const { uid: source } = await adminCall<{ uid: string }>(sb.creds, 'POST', `/accounts/${sb.creds.main.uid}/sub_accounts`, {
      name: 'margin_source',
    });
    await adminCall(sb.creds, 'POST', '/deposits', { uid: source, currency: 'USDT', amount: '30' });
    const accounts: AccountRef[] = [
      { owner: source, kind: 'spot' },
      { owner: keyed, kind: 'margin', pair: 'BTC_USDT' },
    ];
    const before = await readBalances(s.client, accounts, 'USDT');
    const target = dec(before.get(`${keyed}:margin:BTC_USDT`)!)
      .plus(12)
      .toFixed();
    const p = plan('USDT', [
      { account: accounts[0]!, balance: before.get(`${source}:spot`)!, target: { type: 'amount', amount: '18' } },
      { account: accounts[1]!, balance: before.get(`${keyed}:margin:BTC_USDT`)!, target: { type: 'amount', amount: target } },
    ]);
    expect([p.transfers.length, p.requests, p.extraHops]).toEqual([1, 3, 2]);
    const approved = preApproved(p, 'margin1');
    expect(approved.rows.map((r) => [r.kind, r.signer ?? 'main'])).toEqual([
      ['main_sub_transfer', 'main'],
      ['main_sub_transfer', 'main'],
      ['sub_own_transfer', keyed],
    ]);
    const out = await new BatchRun({
      journal: s.journal!,
      sender: s.writes!,
      approved,
      currency: 'USDT',
      readBalances: (a, c) => readBalances(s.client, a, c),
    }).run();
    expect(out.rows.map((r) => [r.state, r.from, r.to])).toEqual([['done', `${source}:spot`, `${keyed}:margin:BTC_USDT`]]);
    expect(s.journal!.intent(approved.rows[2]!.ref)).toMatchObject({ kind: 'sub_own_transfer', signer: keyed, state: 'done' });
    const after = await readBalances(s.client, accounts, 'USDT');
    expect([after.get(`${source}:spot`), after.get(`${keyed}:margin:BTC_USDT`)]).toEqual(['18', target]);
  });
});
