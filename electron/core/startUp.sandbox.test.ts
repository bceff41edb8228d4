import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelResponse, IntentView } from '../../shared/ipc.ts';
import { signGoverned } from './approvals/testkit/governed.ts';
import type { ConfirmCore, Core } from './core.ts';
import { openDesk } from './desk.ts';
import { useSandbox } from './testkit/sandbox.ts';

// A host opens the desk, listens, and answers the window's first reads before the core's start-up work
// (docs/performance.md §Opening the desk, startUp.ts); what writes waits for that work, and what sends waits for the reconciliation
// it starts. Every request to the exchange is seen on the wire (this process's fetch), not counted by the
// desk itself.

const sb = useSandbox('td-start-up', { limits: false, perTest: true });
type Desk = Core & ConfirmCore;

const wire: string[] = [];
/** Requests held on the wire until released (the reconciliation's reads), in order. */
let holding: RegExp | null = null;
const held: Array<() => void> = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  wire.length = 0;
  holding = null;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith(sb.creds.base_url)) {
      const line = `${init?.method ?? 'GET'} ${new URL(url).pathname.slice(new URL(sb.creds.base_url).pathname.length)}`;
      wire.push(line);
      if (holding?.test(line)) await new Promise<void>((r) => held.push(r));
    }
    return realFetch(input, init);
  };
});
const opened: Desk[] = [];
afterEach(async () => {
  globalThis.fetch = realFetch;
  while (held.length) held.shift()!();
  while (opened.length) await opened.pop()!.close();
});

function open(home: string, log: (line: string) => void = () => {}): Desk {
  const desk = openDesk({ home, sandboxCredentialsPath: sb.credentialsPath, coolingOffMs: 0, log });
  opened.push(desk);
  return desk;
}

async function call<T>(desk: Core, channel: string, request: object = {}): Promise<T> {
  const r = await desk.invoke(channel, request);
  if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
  return r.data as T;
}

const stateOf = async (desk: Desk, id: string) =>
  (await call<{ items: IntentView[] }>(desk, 'intentsList')).items.find((i) => i.id === id)?.state;

describe("the desk's start-up", () => {
  it("answers the window's first reads from its own files before it asks the exchange anything", async () => {
    const home = join(sb.dir, 'home');
    const first = open(home);
    const total = await call<ChannelResponse<'totalBalance'>>(first, 'totalBalance', { currency: 'USDT' });
    await call(first, 'balancesMatrix');
    await expect
      .poll(async () => (await call<ChannelResponse<'balancesMatrix'>>(first, 'balancesMatrix')).status.source, { timeout: 20_000 })
      .toBe('exchange');
    const loaded = await call<ChannelResponse<'balancesMatrix'>>(first, 'balancesMatrix');
    // Its history's first sync is done too: a sync cut by the close finishes its reads after it.
    await expect
      .poll(async () => (await call<ChannelResponse<'historyStatus'>>(first, 'historyStatus')).synced_to, { timeout: 20_000 })
      .not.toBeNull();
    await first.close();
    opened.pop();
    wire.length = 0;

    const next = open(home);
    const profile = await call<{ id: string } | null>(next, 'profileCurrent');
    const known = await call<{ data: unknown } | null>(next, 'lastKnown', { channel: 'totalBalance', request: { currency: 'USDT' } });
    expect(profile?.id).toBe('sandbox');
    expect(known?.data).toEqual(total);
    expect((await next.invoke('vaultStatus', {})).ok).toBe(true);
    expect((await next.invoke('deskStatus', {})).ok).toBe(true);
    // The Sub-accounts matrix from its last load, while the load it starts waits for the start-up.
    const matrix = await call<ChannelResponse<'balancesMatrix'>>(next, 'balancesMatrix');
    expect(matrix.status).toMatchObject({ source: 'cache', fetched_at: loaded.status.fetched_at });
    expect(matrix.rows).toEqual(loaded.rows);
    // The session, its clock, the journal's reconciliation and the history's sync have not started yet.
    expect(wire).toEqual([]);

    // Then the start-up runs: any other channel waits for it and is answered once it ran. What it starts
    // in the background (the journal's reconciliation, the history's first sync) and the matrix's load
    // wait for the window to say it painted those first figures.
    expect((await next.invoke('journalStatus', {})).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(wire.filter((l) => l === 'GET /wallet/withdrawals' || l === 'GET /sub_accounts')).toEqual([]);
    expect((await next.invoke('windowPainted', {})).ok).toBe(true);
    await expect.poll(() => wire.some((l) => l === 'GET /wallet/withdrawals')).toBe(true);
    await expect.poll(() => wire.some((l) => l === 'GET /sub_accounts')).toBe(true);
    await expect
      .poll(async () => (await call<ChannelResponse<'balancesMatrix'>>(next, 'balancesMatrix')).status.source, { timeout: 20_000 })
      .toBe('exchange');
  }, 60_000);

  it('lets a withdrawal asked during it go out only after the journal is reconciled with the exchange', async () => {
    const lines: string[] = [];
    const desk = open(join(sb.dir, 'home'), (l) => {
      lines.push(l);
      if (/reconciled with the exchange/.test(l)) wire.push('(reconciled)');
    });
    // The reconciliation's reads (and the history's) wait on the wire until the test lets them through.
    holding = /^GET \/wallet\/(withdrawals|sub_account_transfers)/;
    const id = await signGoverned(desk, {
      kind: 'withdrawal',
      input: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '12' },
    });
    // Drafting started the start-up: the reconciliation is under way, held on the wire.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    // Signed and approved, it is not sent (nor handed to the executor) while the reconciliation has not
    // finished, however often it is looked at.
    for (let i = 0; i < 10; i++) {
      expect([undefined, 'approved']).toContain(await stateOf(desk, id));
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(wire.filter((l) => l === 'POST /withdrawals')).toEqual([]);
    expect(lines.some((l) => /reconciled with the exchange/.test(l))).toBe(false);

    holding = null;
    while (held.length) held.shift()!();
    await expect.poll(() => stateOf(desk, id), { timeout: 20_000 }).toMatch(/accepted|done/);
    expect(wire.filter((l) => l === 'POST /withdrawals')).toHaveLength(1);
    expect(wire).toContain('(reconciled)');
    expect(wire.indexOf('(reconciled)')).toBeLessThan(wire.indexOf('POST /withdrawals'));
  }, 60_000);
});
