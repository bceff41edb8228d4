import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  Chain,
  CrossMarginAccount,
  Deposit,
  DepositAddress,
  Fees,
  listOf,
  MarginPairAccount,
  OwnFuturesAccount,
  SavedAddress,
  SpotAccount,
  SubAccountCrossMarginBalance,
  SubAccountFuturesBalance,
  SubAccountMarginBalance,
  SubAccountSpotBalance,
  SubAccountTransfer,
  TotalBalance,
  TransferOrderStatus,
  UidTransfer,
  Withdrawal,
  WithdrawalLimits,
} from '../../../shared/api/records.ts';
import { readSandboxCredentials } from '../profiles/sandbox.ts';
import { ApiClient } from './client.ts';
import { AnswerShapeError } from '../errors.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// Every record the desk reads, from a real Sandbox through a relay that can damage one field of the
// answer (the adversary: a proxy between desk and exchange, or an exchange that changed its records).
// The undamaged answer must pass; each field the desk uses, dropped or given the wrong type, must be
// refused with a message naming the endpoint and the field.

let client: ApiClient;
let damage: ((body: unknown) => void) | null = null;

const relay = (async (input: string | URL | Request, init?: RequestInit) => {
  const res = await fetch(input, init);
  if (!damage || res.status !== 200) return res;
  const body = JSON.parse(await res.text()) as unknown;
  damage(body);
  return new Response(JSON.stringify(body), { status: 200, headers: res.headers });
}) as typeof fetch;

const sb = useSandbox('td-records');
beforeAll(async () => {
  const creds = readSandboxCredentials(sb.credentialsPath);
  client = new ApiClient({ baseUrl: creds.base_url, credentials: creds.main, account: creds.main.uid, fetch: relay, limitsOff: true });
  await client.syncClock();
}, 60_000);

/** "[0].base.available" -> [0, 'base', 'available'] */
function segments(field: string): Array<string | number> {
  return [...field.matchAll(/\[(\d+)\]|\.?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[2]!));
}

function at(body: unknown, field: string, change: (holder: Record<string | number, unknown>, key: string | number) => void): void {
  const path = segments(field);
  let holder = body as Record<string | number, unknown>;
  for (const p of path.slice(0, -1)) holder = holder[p] as Record<string | number, unknown>;
  const key = path.at(-1)!;
  if (!(key in holder)) throw new Error(`the Sandbox's answer has no ${field} to damage`);
  change(holder, key);
}

const window = (): Array<[string, string]> => {
  const now = Math.floor(client.clock.nowMs() / 1000);
  return [
    ['from', String(now - 29 * 86_400)],
    ['to', String(now)],
  ];
};

interface Case {
  path: string;
  query?: () => Array<[string, string]>;
  signed?: boolean;
  schema: z.ZodType;
  /** The fields the desk uses, as paths into the answer. */
  used: string[];
}

const cases: Case[] = [
  {
    path: '/wallet/total_balance',
    schema: TotalBalance,
    used: ['total', 'total.amount', 'total.currency', 'details', 'details.spot.amount', 'details.spot.currency'],
  },
  {
    path: '/wallet/deposit_address',
    query: () => [['currency', 'USDT']],
    schema: DepositAddress,
    used: [
      'currency',
      'address',
      'multichain_addresses',
      'multichain_addresses[0].chain',
      'multichain_addresses[0].address',
      'multichain_addresses[0].obtain_failed',
    ],
  },
  {
    path: '/wallet/currency_chains',
    query: () => [['currency', 'USDT']],
    signed: false,
    schema: listOf(Chain),
    used: ['[0].chain', '[0].name_en', '[0].is_disabled', '[0].is_deposit_disabled', '[0].is_withdraw_disabled'],
  },
  {
    path: '/wallet/withdrawals',
    query: window,
    schema: listOf(Withdrawal),
    used: ['[0].id', '[0].timestamp', '[0].amount', '[0].fee', '[0].currency', '[0].address', '[0].chain', '[0].status'],
  },
  {
    path: '/wallet/deposits',
    query: window,
    schema: listOf(Deposit),
    used: ['[0].id', '[0].timestamp', '[0].amount', '[0].currency', '[0].chain', '[0].status'],
  },
  {
    path: '/wallet/sub_account_transfers',
    query: window,
    schema: listOf(SubAccountTransfer),
    used: ['[0].timest', '[0].sub_account', '[0].currency', '[0].amount', '[0].direction', '[0].status'],
  },
  {
    path: '/wallet/order_status',
    query: () => [['client_order_id', seededTransferId]],
    schema: TransferOrderStatus,
    used: ['tx_id', 'status'],
  },
  {
    path: '/wallet/push',
    query: window,
    schema: listOf(UidTransfer),
    used: ['[0].id', '[0].push_uid', '[0].receive_uid', '[0].currency', '[0].amount', '[0].create_time', '[0].status'],
  },
  {
    path: '/wallet/withdraw_status',
    query: () => [['currency', 'USDT']],
    schema: listOf(WithdrawalLimits),
    used: [
      '[0].currency',
      '[0].withdraw_fix',
      '[0].withdraw_percent',
      '[0].withdraw_day_limit',
      '[0].withdraw_day_limit_remain',
      '[0].withdraw_amount_mini',
      '[0].withdraw_eachtime_limit',
    ],
  },
  { path: '/wallet/fee', schema: Fees, used: ['user_id', 'taker_fee', 'maker_fee'] },
  {
    path: '/wallet/saved_address',
    query: () => [['currency', 'USDT']],
    schema: listOf(SavedAddress),
    used: ['[0].currency', '[0].chain', '[0].address', '[0].name', '[0].verified'],
  },
  { path: '/wallet/sub_account_balances', schema: listOf(SubAccountSpotBalance), used: ['[0].uid', '[0].available'] },
  {
    path: '/wallet/sub_account_margin_balances',
    schema: listOf(SubAccountMarginBalance),
    used: [
      '[0].uid',
      '[0].available',
      '[0].available[0].currency_pair',
      '[0].available[0].base',
      '[0].available[0].quote',
      '[0].available[0].base.currency',
      '[0].available[0].base.available',
      '[0].available[0].base.locked',
      '[0].available[0].base.borrowed',
    ],
  },
  { path: '/wallet/sub_account_futures_balances', schema: listOf(SubAccountFuturesBalance), used: ['[0].uid', '[0].available'] },
  {
    path: '/wallet/sub_account_cross_margin_balances',
    schema: listOf(SubAccountCrossMarginBalance),
    used: [
      '[0].uid',
      '[0].available',
      '[0].available.user_id',
      '[0].available.balances',
      '[0].available.total',
      '[0].available.borrowed',
      '[0].available.net',
      '[0].available.risk',
    ],
  },
  { path: '/spot/accounts', schema: listOf(SpotAccount), used: ['[0].currency', '[0].available', '[0].locked'] },
  {
    path: '/margin/accounts',
    schema: listOf(MarginPairAccount),
    used: [
      '[0].currency_pair',
      '[0].base',
      '[0].quote',
      '[0].quote.currency',
      '[0].quote.available',
      '[0].quote.locked',
      '[0].quote.borrowed',
    ],
  },
  { path: '/futures/usdt/accounts', schema: OwnFuturesAccount, used: ['total', 'available', 'currency'] },
  { path: '/margin/cross/accounts', schema: CrossMarginAccount, used: ['user_id', 'balances', 'total', 'borrowed', 'net', 'risk'] },
];

/** A client_order_id the demo world seeded, for GET /wallet/order_status. */
let seededTransferId = '';

describe('every record the desk reads is checked where it arrives', () => {
  beforeAll(async () => {
    const rows = await client.request(
      { method: 'GET', path: '/wallet/sub_account_transfers', query: window() },
      listOf(SubAccountTransfer),
    );
    seededTransferId = rows.find((r) => r.client_order_id)!.client_order_id!;
  });

  it.each(cases)('GET $path: the answer passes, and each used field dropped or mistyped is refused by name', async (c) => {
    const req = { method: 'GET' as const, path: c.path, query: c.query?.() ?? [], signed: c.signed };
    damage = null;
    const clean = await client.request(req, c.schema);
    expect(clean).toBeDefined();
    // A field the desk does not use is kept, not stripped.
    damage = (body) =>
      at(body, c.used[0]!, (holder) => {
        holder.extra_field_from_a_newer_exchange = 'kept';
      });
    const loose = await client.request(req, c.schema);
    const probe = segments(c.used[0]!)
      .slice(0, -1)
      .reduce<unknown>((o, p) => (o as Record<string | number, unknown>)[p], loose);
    expect(probe).toMatchObject({ extra_field_from_a_newer_exchange: 'kept' });

    for (const field of c.used) {
      damage = (body) =>
        at(body, field, (holder, key) => {
          delete holder[key];
        });
      const dropped = await client.request(req, c.schema).then(
        () => null,
        (e: unknown) => e,
      );
      expect(dropped, `${c.path} without ${field}`).toBeInstanceOf(AnswerShapeError);
      expect((dropped as Error).message).toContain(`GET ${c.path}`);
      expect((dropped as Error).message).toContain(`${field} is missing`);

      damage = (body) =>
        at(body, field, (holder, key) => {
          holder[key] = typeof holder[key] === 'boolean' ? 'yes' : true;
        });
      const mistyped = await client.request(req, c.schema).then(
        () => null,
        (e: unknown) => e,
      );
      expect(mistyped, `${c.path} with a mistyped ${field}`).toBeInstanceOf(AnswerShapeError);
      expect((mistyped as Error).message).toContain(`GET ${c.path}`);
      expect((mistyped as Error).message).toContain(`${field} is not valid`);
    }
    damage = null;
  });
});
