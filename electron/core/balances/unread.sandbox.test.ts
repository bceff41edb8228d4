import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnreadRecord } from '../../../shared/unread.ts';
import { ApiClient } from '../client/client.ts';
import { BalancesService } from './service.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { BalanceStore } from './store.ts';

// One malformed record among the sub-accounts' futures balances, from a real Sandbox through a relay that
// damages it (a live exchange can send one odd record): the load keeps every other record, names the one
// it set aside, and the matrix's rows and totals leave only that record out.

const FUTURES = '/wallet/sub_account_futures_balances';
let damage: ((path: string, body: unknown) => void) | null = null;
/** What the client told of each futures answer, newest last. */
const reported: UnreadRecord[][] = [];
let service: BalancesService;

const relay = (async (input: string | URL | Request, init?: RequestInit) => {
  const res = await fetch(input, init);
  if (!damage || res.status !== 200) return res;
  const body = JSON.parse(await res.text()) as unknown;
  damage(new URL(String(input)).pathname, body);
  return new Response(JSON.stringify(body), { status: 200, headers: res.headers });
}) as typeof fetch;

const sb = useSandbox('td-unread');
beforeAll(async () => {
  const creds = sb.creds;
  const client = new ApiClient({
    baseUrl: creds.base_url,
    credentials: creds.main,
    fetch: relay,
    limitsOff: true,
    onUnread: (req, unread) => {
      if (req.path === FUTURES) reported.push(unread);
    },
  });
  await client.syncClock();
  service = new BalancesService({ client: () => client, store: new BalanceStore(null), events: { progress: () => {}, alert: () => {} } });
});

afterAll(() => {
  service?.close();
});

const page = () => service.matrix({ quote: 'USDT', search: '', sort: 'uid', desc: false, hide_below: null, offset: 0, limit: 1000 });

describe('a sub-accounts load with one malformed record', () => {
  it('keeps every other record, names the one set aside, and its totals leave only that one out', async () => {
    const clean = await service.refresh();
    expect(clean.unread).toEqual([]);
    const before = page();
    let damagedUid = '';
    damage = (path, body) => {
      if (!path.endsWith(FUTURES)) return;
      const rows = body as Array<{ uid: string; available: Record<string, Record<string, unknown>> }>;
      const row = rows.find((r) => r.available.usdt?.unrealised_pnl !== undefined)!;
      damagedUid = row.uid;
      row.available.usdt!.unrealised_pnl = '-.345678';
    };
    try {
      const status = await service.refresh();
      expect(status.state).toBe('ready');
      expect(status.error).toBeNull();
      expect(status.unread).toEqual([
        {
          endpoint: `GET ${FUTURES}`,
          record: `uid ${damagedUid}`,
          field: 'available.usdt.unrealised_pnl',
          problem: expect.stringMatching(/is not valid/),
        },
      ]);
      // The same record reached the desk-wide count through the client.
      expect(reported.at(-1)).toEqual(status.unread);
      const after = page();
      expect(after.total_rows).toBe(before.total_rows);
      const was = before.rows.find((r) => r.uid === damagedUid)!;
      const now = after.rows.find((r) => r.uid === damagedUid)!;
      // That sub-account shows without its futures record; every other figure is as before.
      expect(now.cells.futures_usdt.value).toBe('0');
      expect(now.cells.spot).toEqual(was.cells.spot);
      expect(after.rows.filter((r) => r.uid !== damagedUid)).toEqual(before.rows.filter((r) => r.uid !== damagedUid));
      expect(after.column_totals.spot).toBe(before.column_totals.spot);
    } finally {
      damage = null;
    }
    // The exchange answers well again: nothing is set aside any more.
    expect((await service.refresh()).unread).toEqual([]);
    expect(reported.at(-1)).toEqual([]);
  });
});
