import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  SubAccountCrossMarginBalance,
  SubAccountFuturesBalance,
  SubAccountMarginBalance,
  SubAccountSpotBalance,
} from '../../../shared/api/records.ts';
import { DecimalString } from '../../../shared/money.ts';
import { UnreadRecord } from '../../../shared/unread.ts';
import { Cell, MatrixRow } from '../../../shared/balances.ts';
import { ACCOUNT_KINDS } from '../../../shared/accountKinds.ts';
import { LOAD_FIELDS, LOAD_RECORDS, loadFieldProblem, loadRecordProblem, viewRowProblem } from './lastLoadShape.ts';

// The kept load is checked by hand (lastLoadShape.ts) instead of through the record schemas, for the
// speed of a start. This holds it to the schemas' verdict: a valid copy, then every field of it replaced
// by values of other kinds, removed, or given a neighbour it should not have; for each, both accept or
// both refuse, and at the same field.

/** The schemas the exchange's answers go through (records.ts), as the kept load was read back before. */
const SCHEMAS = {
  accounts: z.array(z.object({ uid: z.string(), name: z.string() }).strict()),
  spot: z.array(SubAccountSpotBalance),
  margin: z.array(SubAccountMarginBalance),
  futures: z.array(SubAccountFuturesBalance),
  cross: z.array(SubAccountCrossMarginBalance),
  tickers: z.array(z.object({ currency_pair: z.string(), last: DecimalString }).strict()),
  requests: z.number().int().nonnegative(),
  unread: z.array(UnreadRecord),
} satisfies Record<keyof typeof LOAD_FIELDS, z.ZodType>;

const side = (currency: string) => ({ currency, available: '1.5', locked: '0', borrowed: '0.25', interest: '0' });
const LOAD = {
  accounts: [
    { uid: '101', name: 'alpha' },
    { uid: '102', name: '' },
  ],
  spot: [
    { uid: '101', available: { USDT: '10', BTC: '0.001' } },
    { uid: '102', available: {}, locking: { USDT: '-1' } },
  ],
  margin: [{ uid: '101', available: [{ currency_pair: 'BTC_USDT', mmr: '1.2', base: side('BTC'), quote: side('USDT') }] }],
  futures: [{ uid: '102', available: { usdt: { total: '20', available: '15', unrealised_pnl: '-5', currency: 'USDT' }, btc: {} } }],
  cross: [
    {
      uid: '101',
      available: {
        user_id: 101,
        balances: { USDT: { available: '5', freeze: '0', borrowed: '1' } },
        total: '5',
        borrowed: '1',
        net: '4',
        risk: '2.5',
      },
    },
    { uid: '102', available: { user_id: '102', balances: {}, total: '0', borrowed: '0', net: '0', risk: '0' } },
  ],
  tickers: [{ currency_pair: 'BTC_USDT', last: '100000.5' }],
  requests: 15,
  unread: [{ endpoint: 'GET /wallet/sub_account_balances', record: 'uid 103', field: 'available.USDT', problem: 'not a decimal' }],
};

const OTHERS: unknown[] = [7, -1, 1.5, 2 ** 60, '7', '-7', '1e9', 'x', '', null, true, [], {}, ['1'], { a: '1' }];
const GONE = Symbol('removed');

/** The value with the thing at `path` replaced (GONE: removed). */
function edit(value: unknown, path: Array<string | number>, by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (by === GONE) {
    if (Array.isArray(at)) at.splice(Number(last), 1);
    else delete at[last];
  } else at[last] = by;
  return copy;
}

/** Every path into a value (itself included), and each object's path for a field it should not have. */
function* paths(value: unknown, path: Array<string | number> = []): Generator<Array<string | number>> {
  yield path;
  if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) yield* paths(v, [...path, Array.isArray(value) ? Number(k) : k]);
}

function verdicts(key: keyof typeof LOAD_FIELDS, edited: unknown) {
  const parsed = SCHEMAS[key].safeParse(edited);
  const expected = parsed.success ? null : [key, ...parsed.error.issues[0]!.path].join('.');
  const problem = loadFieldProblem(key, edited);
  // A list read back in steps (lastLoad.ts) is checked record by record: the same first problem.
  if (key !== 'requests' && Array.isArray(edited)) {
    const byRecord = edited.map((r, i) => loadRecordProblem(key as keyof typeof LOAD_RECORDS, i, r)).find((p) => p !== null) ?? null;
    expect(byRecord).toBe(problem);
  }
  return { expected, got: problem === null ? null : problem.slice(0, problem.indexOf(': ')) };
}

describe("the kept load's check", () => {
  it('accepts the copy the schemas accept', () => {
    for (const key of Object.keys(SCHEMAS) as Array<keyof typeof SCHEMAS>)
      expect(verdicts(key, LOAD[key])).toEqual({ expected: null, got: null });
  });

  it('refuses what the schemas refuse, naming the same field, edit by edit', () => {
    let refused = 0;
    for (const key of Object.keys(SCHEMAS) as Array<keyof typeof SCHEMAS>) {
      for (const path of paths(LOAD[key])) {
        for (const by of [...OTHERS, GONE]) {
          if (by === GONE && path.length === 0) continue;
          const edited = edit(LOAD[key], path, by);
          const v = verdicts(key, edited);
          expect({ key, path, by: String(by), ...v }).toEqual({ key, path, by: String(by), expected: v.expected, got: v.expected });
          if (v.expected) refused++;
        }
        const target = path.length ? path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], LOAD[key]) : LOAD[key];
        if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
          const v = verdicts(key, edit(LOAD[key], [...path, 'neighbour'], '1'));
          expect({ key, path, ...v }).toEqual({ key, path, expected: v.expected, got: v.expected });
        }
      }
    }
    // The edits do reach the checks: most of them are refused.
    expect(refused).toBeGreaterThan(500);
  });

  it('says what is wrong in words', () => {
    expect(loadFieldProblem('spot', [{ uid: '1', available: { USDT: '1e9' } }])).toBe(
      'spot.0.available.USDT: must be a decimal number string',
    );
    expect(loadFieldProblem('tickers', [{ currency_pair: 'BTC_USDT', last: '1', volume: '2' }])).toBe(
      'tickers.0: Unrecognized key: "volume"',
    );
    expect(loadFieldProblem('cross', [{ uid: '1', available: null }])).toBe('cross.0.available: expected object, received null');
  });
});

/** A row of the opening view kept with the load: the contract's row, as the core made it (no other field, no alert counted yet). */
const VIEW_ROW_SCHEMA = MatrixRow.extend({
  cells: z
    .object(Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, Cell.strict()])) as Record<(typeof ACCOUNT_KINDS)[number], typeof Cell>)
    .strict(),
  cross_risk: DecimalString.nullable(),
  margin_risk: DecimalString.nullable(),
  alerts: z.literal(0),
}).strict();
const cell = (amounts: Record<string, string>, value: string) => ({ value, amounts, unpriced: [] as string[] });
const VIEW_ROW_COPY = {
  uid: '101',
  name: 'alpha',
  cells: {
    spot: cell({ USDT: '10', BTC: '0.001' }, '110'),
    margin: { value: '0', amounts: {}, unpriced: ['XYZ'] },
    futures_usdt: cell({}, '0'),
    futures_btc: cell({}, '0'),
    futures_usd: cell({}, '0'),
    cross_margin: cell({ USDT: '-1.5' }, '-1.5'),
  },
  total: '108.5',
  cross_risk: '2.5',
  margin_risk: null,
  alerts: 0,
};

describe("the kept opening view's rows", () => {
  it('are refused where the row schema refuses, naming the same field, edit by edit', () => {
    let refused = 0;
    for (const path of paths(VIEW_ROW_COPY)) {
      const edits = [...OTHERS, ...(path.length ? [GONE] : [])].map((by) => edit(VIEW_ROW_COPY, path, by));
      const target = path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], VIEW_ROW_COPY);
      if (typeof target === 'object' && target !== null && !Array.isArray(target))
        edits.push(edit(VIEW_ROW_COPY, [...path, 'neighbour'], '1'));
      for (const edited of [VIEW_ROW_COPY, ...edits]) {
        const parsed = VIEW_ROW_SCHEMA.safeParse(edited);
        const expected = parsed.success ? null : ['opening', 'rows', 3, ...parsed.error.issues[0]!.path].join('.');
        const problem = viewRowProblem(3, edited);
        expect({ path, edited, got: problem && problem.slice(0, problem.indexOf(': ')) }).toEqual({ path, edited, got: expected });
        if (expected) refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
  });
});
