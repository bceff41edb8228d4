import Decimal from 'decimal.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ProfileStore } from '../profiles/store.ts';
import { writeFor } from '../rebalance/legs.ts';
import { route } from '../rebalance/route.ts';
import { Session, type ActiveSession } from '../session.ts';
import { DeskVault } from '../vault/vault.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { SESSION_WRITES } from '../testkit/sandboxCore.ts';

// A move between a sub-account's own accounts, journaled and sent by the desk's write executor through
// the session, against a real Sandbox: the Sandbox moves the money of the account whose key signed, so
// the balances say which key it was. A third sub-account's key is wallet read-only while the main key
// may write: its refusal can only come from the sub-account's key, and the desk learns it for that key.

type Key = { uid: string; key: string; secret: string };
let store: ProfileStore;
let session: Session;
let s: ActiveSession;
let readOnlySub: Key;

const sb = useSandbox('subown');
beforeAll(async () => {
  const third = sb.creds.sub_accounts[2]!;
  readOnlySub = {
    uid: third.uid,
    ...((await adminCall(sb.creds, 'POST', '/keys', {
      uid: third.uid,
      perms: { spot: 'write', futures: 'write', wallet: 'read' },
      label: 'wallet read-only',
    })) as { key: string; secret: string }),
  };
  const vault = DeskVault.open({ path: join(sb.dir, 'vault.json'), scrypt: { N: 2 ** 14, r: 8, p: 1 } });
  await vault.setPassphrase(undefined, 'passphrase for tests');
  store = new ProfileStore(join(sb.dir, 'profiles.json'));
  session = new Session({
    ...SESSION_WRITES,
    store,
    vault,
    journalDir: join(sb.dir, 'journals'),
    settleMs: () => 500,
  });
  const [a] = sb.creds.sub_accounts;
  const saved = await session.save({
    name: 'Signs with sub keys',
    environment: 'futures',
    base_url: sb.creds.base_url,
    svc: 'Svc',
    key: sb.creds.main.key,
    secret: sb.creds.main.secret,
    permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
    sub_keys: [a!, readOnlySub].map((k) => ({ uid: k.uid, key: k.key, secret: k.secret })),
  });
  session.select(saved.id);
  s = session.active();
  // Nothing is sent until the journal is reconciled with the exchange (session.ts): wait for it, as an operator would.
  await vi.waitFor(() => expect(session.reconcileHold(saved.id)).toBeNull(), { timeout: 30_000, interval: 50 });
}, 60_000);
afterAll(async () => {
  await session?.close();
});

type SpotRow = { currency: string; available: string };
const spotUsdt = async (c: ActiveSession['client']): Promise<Decimal> =>
  new Decimal(
    (
      (await c.request(
        { method: 'GET', path: '/spot/accounts', query: [['currency', 'USDT']] },
        z.array(z.looseObject({ currency: z.string(), available: z.string() })),
      )) as SpotRow[]
    ).find((r) => r.currency === 'USDT')?.available ?? '0',
  );
const futuresUsdt = async (c: ActiveSession['client']): Promise<Decimal> =>
  new Decimal((await c.request({ method: 'GET', path: '/futures/usdt/accounts' }, z.looseObject({ available: z.string() }))).available);

describe("a sub-account's own transfer, through the write executor", () => {
  it("is signed by the sub-account's key: its money moves, the main account's does not, and the wire body is §4.1's", async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const sub = s.subKeys.client(uid);
    const [spot0, fut0, main0, mainFut0] = [
      await spotUsdt(sub),
      await futuresUsdt(sub),
      await spotUsdt(s.client),
      await futuresUsdt(s.client),
    ];

    const v = await s.writes!.submit(
      {
        kind: 'sub_own_transfer',
        input: { sub_account: uid, currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '4.5' },
      },
      'tester',
    );

    expect(v.state).toBe('done');
    expect(v.signer).toBe(uid);
    expect((await spotUsdt(sub)).toFixed()).toBe(spot0.minus('4.5').toFixed());
    expect((await futuresUsdt(sub)).toFixed()).toBe(fut0.plus('4.5').toFixed());
    expect((await spotUsdt(s.client)).toFixed()).toBe(main0.toFixed());
    expect((await futuresUsdt(s.client)).toFixed()).toBe(mainFut0.toFixed());
    const lines = readFileSync(join(sb.dir, 'journals', `${s.id.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; intent?: string });
    const intent = lines.find((r) => r.type === 'intent' && r.intent === v.id);
    expect(intent).toMatchObject({ signer: uid, body: { currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '4.5' } });
    expect(Object.keys((intent as unknown as { body: object }).body).sort()).toEqual(['amount', 'currency', 'from', 'settle', 'to']);
  });

  it('a wallet read-only sub-account key is refused, and the desk learns that of that key only', async () => {
    const v = await s.writes!.submit(
      {
        kind: 'sub_own_transfer',
        input: { sub_account: readOnlySub.uid, currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' },
      },
      'tester',
    );
    expect(v.state).toBe('refused');
    expect(v.label).toBe('READ_ONLY');
    const summary = store.summaries().find((p) => p.name === 'Signs with sub keys')!;
    expect(summary.sub_keys.find((k) => k.uid === readOnlySub.uid)!.permissions?.wallet).toBe('read');
    expect(summary.permissions.wallet).toBe('write');
  });

  it('a sub-account the profile holds no key for: nothing is sent, and the intent says why', async () => {
    const other = sb.creds.sub_accounts[1]!.uid;
    // The counts' `to` is the Sandbox's current second, which may tick between the two reads.
    const counts = async () => {
      const { to: _to, ...rest } = (await adminCall(sb.creds, 'GET', `/counts?uid=${other}`)) as Record<string, unknown>;
      return rest;
    };
    const before = await counts();
    const v = await s.writes!.submit(
      {
        kind: 'sub_own_transfer',
        input: { sub_account: other, currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '1' },
      },
      'tester',
    );
    expect(v.state).toBe('cancelled');
    expect(v.attempts).toBe(0);
    expect(v.reason).toMatch(new RegExp(`no key for sub-account ${other}`));
    expect(await counts()).toEqual(before);
  });

  it('an unclear answer is never sent again: it waits for an operator, and the money moved once', async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const sub = s.subKeys.client(uid);
    const spot0 = await spotUsdt(sub);
    await adminCall(sb.creds, 'POST', '/faults', { path: '/wallet/transfers', method: 'POST', kind: 'drop', times: 1 });
    try {
      const v = await s.writes!.submit(
        {
          kind: 'sub_own_transfer',
          input: { sub_account: uid, currency: 'USDT', from: 'spot', to: 'futures', settle: 'usdt', amount: '2' },
        },
        'tester',
      );
      expect(v.state).toBe('needs_attention');
      expect(v.attempts).toBe(1);
    } finally {
      await adminCall(sb.creds, 'DELETE', '/faults');
    }
    expect((await spotUsdt(sub)).toFixed()).toBe(spot0.minus(2).toFixed());
  });
});

describe("a rebalance leg between a sub-account's own accounts", () => {
  it("becomes a sub_own_transfer that the sub-account's key signs: its spot into its isolated margin account", async () => {
    const uid = sb.creds.sub_accounts[0]!.uid;
    const [leg] = route({ owner: uid, kind: 'spot' }, { owner: uid, kind: 'margin', pair: 'BTC_USDT' });
    expect(leg!.signer).toBe(uid);
    const quoteOf = async (): Promise<Decimal> => {
      const rows = await s.client.request(
        { method: 'GET', path: '/wallet/sub_account_margin_balances', query: [['sub_uid', uid]] },
        z.array(
          z.looseObject({
            available: z.array(z.looseObject({ currency_pair: z.string(), quote: z.looseObject({ available: z.string() }) })),
          }),
        ),
      );
      return new Decimal(rows[0]?.available.find((p) => p.currency_pair === 'BTC_USDT')?.quote.available ?? '0');
    };
    const [spot0, margin0, main0] = [await spotUsdt(s.subKeys.client(uid)), await quoteOf(), await spotUsdt(s.client)];

    const v = await s.writes!.submit(writeFor('USDT', { ...leg!, amount: '6' }), 'rebalance');

    expect(v).toMatchObject({
      kind: 'sub_own_transfer',
      signer: uid,
      state: 'done',
      body: { currency: 'USDT', from: 'spot', to: 'margin', amount: '6', currency_pair: 'BTC_USDT' },
    });
    expect((await spotUsdt(s.subKeys.client(uid))).toFixed()).toBe(spot0.minus(6).toFixed());
    expect((await quoteOf()).toFixed()).toBe(margin0.plus(6).toFixed());
    expect((await spotUsdt(s.client)).toFixed()).toBe(main0.toFixed());
  });
});
