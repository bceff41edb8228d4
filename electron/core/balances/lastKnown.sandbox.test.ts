import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelResponse } from '../../../shared/ipc.ts';
import { createCore, type ConfirmCore, type Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// Local-first paint (docs/performance.md §Opening the desk): the Overview's reads leave their answer in the desk's cache, and the next
// start answers it at once with its time, before (and whatever) the exchange answers. Proved with a second
// desk on the same folder whose exchange cannot be reached: the figures come from the cache alone.

const sb = useSandbox('td-last-known', { limits: false });
const opened: Core[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

/** A desk on `dataDir`; `unreachable` points its profile at a port nothing listens on. */
function desk(dataDir: string, unreachable = false): Core & ConfirmCore {
  let credentialsPath = sb.credentialsPath;
  if (unreachable) {
    const creds = JSON.parse(readFileSync(sb.credentialsPath, 'utf8')) as { base_url: string };
    creds.base_url = creds.base_url.replace(/:\d+/, ':9');
    credentialsPath = join(dataDir, '..', 'unreachable-credentials.json');
    writeFileSync(credentialsPath, JSON.stringify(creds));
  }
  const core = createCore({ profile: { ...sandboxProfile(credentialsPath), limitsOff: true }, dataDir, log: () => {}, coolingOffMs: 0 });
  opened.push(core);
  return core;
}

async function call<T>(core: Core, channel: string, request: object): Promise<T> {
  const r = await core.invoke(channel, request);
  if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
  return r.data as T;
}

type Known<C extends 'totalBalance' | 'balancesMain'> = { at: number; data: ChannelResponse<C> } | null;

describe('the last known figures of the Overview', () => {
  it('are answered by the next start from the cache, with their time, while the exchange cannot be reached', async () => {
    const dataDir = join(sb.dir, 'desk-a');
    const first = desk(dataDir);
    expect(await call(first, 'lastKnown', { channel: 'totalBalance', request: {} })).toBeNull();
    const before = Date.now();
    const total = await call<ChannelResponse<'totalBalance'>>(first, 'totalBalance', { currency: 'USDT' });
    const main = await call<ChannelResponse<'balancesMain'>>(first, 'balancesMain', {});
    await first.close();
    opened.pop();

    const next = desk(dataDir, true);
    const failed = await next.invoke('totalBalance', { currency: 'USDT' });
    expect(failed.ok).toBe(false);
    // `{}` and the default spelled out are one request.
    const knownTotal = await call<Known<'totalBalance'>>(next, 'lastKnown', { channel: 'totalBalance', request: {} });
    expect(knownTotal?.data).toEqual(total);
    expect(knownTotal!.at).toBeGreaterThanOrEqual(before);
    const knownMain = await call<Known<'balancesMain'>>(next, 'lastKnown', { channel: 'balancesMain', request: { quote: 'USDT' } });
    expect(knownMain?.data).toEqual(main);
    // Another valuation currency was never read: nothing is known of it.
    expect(await call(next, 'lastKnown', { channel: 'totalBalance', request: { currency: 'BTC' } })).toBeNull();
  }, 60_000);

  it('are not shown when someone edited them in the data folder', async () => {
    const dataDir = join(sb.dir, 'desk-b');
    const first = desk(dataDir);
    await call(first, 'totalBalance', { currency: 'USDT' });
    await first.close();
    opened.pop();

    const file = new Database(join(dataDir, 'balances', 'sandbox.sqlite'));
    const row = file.prepare("SELECT answer FROM last_known WHERE channel = 'totalBalance'").get() as { answer: string };
    const edited = JSON.parse(row.answer) as { total: { amount: string } };
    edited.total.amount = '1e9'; // not a decimal string as §2.9 sends it
    file.prepare("UPDATE last_known SET answer = ? WHERE channel = 'totalBalance'").run(JSON.stringify(edited));
    file.close();

    const next = desk(dataDir, true);
    expect(await call(next, 'lastKnown', { channel: 'totalBalance', request: {} })).toBeNull();
  }, 60_000);

  it('refuse a request for a read the cache does not keep, naming the field', async () => {
    const core = desk(join(sb.dir, 'desk-c'));
    const r = await core.invoke('lastKnown', { channel: 'withdrawalsList', request: {} });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.path).toEqual(['channel']);
  });
});
