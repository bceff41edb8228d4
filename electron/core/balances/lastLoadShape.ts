import { isDecimalString } from '../../../shared/decimal.ts';
import { ACCOUNT_KINDS } from '../../../shared/accountKinds.ts';

// The kept load's shape, checked by hand: the rules of the record schemas it was saved through
// (shared/api/records.ts: the §2.8 sub-account records), without zod. zod's parse of 1,000 sub-accounts'
// records, in a process that has just started, was the largest part of reading the load back (60 of
// 70 ms in a CPU profile of a start; docs/performance.md §Opening the desk). lastLoadShape.test.ts holds this check to the schemas'
// verdict on the same copies, edited field by field.

/** A field that does not fit: its path from the load's top, and what is wrong. */
export class ShapeProblem extends Error {
  readonly path: Array<string | number> = [];
  constructor(message: string) {
    super(message);
  }
}

/** Checks one value; throws a ShapeProblem whose path the containers fill in on the way out. */
type Check = (v: unknown) => void;

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function expected(what: string, v: unknown): never {
  throw new ShapeProblem(`expected ${what}, received ${typeOf(v)}`);
}

/**
 * Puts `key` at the front of a problem's path on its way out. Called from an inline try/catch, not
 * around a closure: one closure per value checked made reading 1,000 sub-accounts' kept load back in a
 * new process 52 ms rather than 46 (medians of 5 alternating runs; docs/performance.md §Opening the desk).
 */
function under(key: string | number, e: unknown): never {
  if (e instanceof ShapeProblem) e.path.unshift(key);
  throw e;
}

const string: Check = (v) => {
  if (typeof v !== 'string') expected('string', v);
};
const decimal: Check = (v) => {
  if (typeof v !== 'string') expected('string', v);
  if (!isDecimalString(v)) throw new ShapeProblem('must be a decimal number string');
};
/** records.ts WireInt: a safe integer, or its digits as a string. */
const wireInt: Check = (v) => {
  if (typeof v === 'number' ? Number.isSafeInteger(v) : typeof v === 'string' && /^-?\d+$/.test(v)) return;
  throw new ShapeProblem(typeof v === 'string' ? 'must be an integer' : `expected an integer, received ${typeOf(v)}`);
};

function arrayOf(item: Check): Check {
  return (v) => {
    if (!Array.isArray(v)) expected('array', v);
    for (let i = 0; i < v.length; i++) {
      try {
        item(v[i]);
      } catch (e) {
        under(i, e);
      }
    }
  };
}

function recordOf(value: Check): Check {
  return (v) => {
    if (!isObject(v)) expected('record', v);
    for (const k of Object.keys(v)) {
      try {
        value(v[k]);
      } catch (e) {
        under(k, e);
      }
    }
  };
}

/** An object with these fields (`optional` ones may be absent); `strict`: no other field. */
function object(fields: Record<string, Check>, opts: { strict?: boolean; optional?: readonly string[] } = {}): Check {
  const names = Object.keys(fields);
  return (v) => {
    if (!isObject(v)) expected('object', v);
    for (const k of names) {
      const x = v[k];
      if (x === undefined && opts.optional?.includes(k)) continue;
      try {
        fields[k]!(x);
      } catch (e) {
        under(k, e);
      }
    }
    if (opts.strict) {
      const extra = Object.keys(v).find((k) => !(k in fields));
      if (extra !== undefined) throw new ShapeProblem(`Unrecognized key: "${extra}"`);
    }
  };
}

const decimals = recordOf(decimal);
const marginSide = object({ currency: string, available: decimal, locked: decimal, borrowed: decimal });
const futuresAccount = object(
  { total: decimal, available: decimal, unrealised_pnl: decimal, currency: string },
  { optional: ['total', 'available', 'unrealised_pnl', 'currency'] },
);
const crossAccount = object({
  user_id: wireInt,
  balances: recordOf(object({ available: decimal, freeze: decimal, borrowed: decimal })),
  total: decimal,
  borrowed: decimal,
  net: decimal,
  risk: decimal,
});

/** One record of each of the load's lists, checked as it was when it arrived (records.ts). */
export const LOAD_RECORDS = {
  accounts: object({ uid: string, name: string }, { strict: true }),
  spot: object({ uid: string, available: decimals, locking: decimals }, { optional: ['locking'] }),
  margin: object({ uid: string, available: arrayOf(object({ currency_pair: string, base: marginSide, quote: marginSide })) }),
  futures: object({ uid: string, available: recordOf(futuresAccount) }),
  cross: object({ uid: string, available: crossAccount }),
  tickers: object({ currency_pair: string, last: decimal }, { strict: true }),
  unread: object({ endpoint: string, record: string, field: string, problem: string }),
} satisfies Record<string, Check>;

/** The load's fields: its lists, and the count of requests it took. */
export const LOAD_FIELDS = {
  ...(Object.fromEntries(Object.entries(LOAD_RECORDS).map(([k, c]) => [k, arrayOf(c)])) as Record<keyof typeof LOAD_RECORDS, Check>),
  requests: (v: unknown) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ShapeProblem('must be a whole number, 0 or more');
  },
} satisfies Record<string, Check>;

function problemOf(path: Array<string | number>, run: () => void): string | null {
  try {
    run();
    return null;
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    e.path.unshift(...path);
    return `${e.path.join('.')}: ${e.message}`;
  }
}

/** Checks the load's field `key`; answers "key.path: problem" when it does not fit, else null. */
export function loadFieldProblem(key: keyof typeof LOAD_FIELDS, value: unknown): string | null {
  return problemOf([key], () => LOAD_FIELDS[key](value));
}

/** Checks record `i` of the list `key` alone (a list checked in steps): the same answer as loadFieldProblem's. */
export function loadRecordProblem(key: keyof typeof LOAD_RECORDS, i: number, record: unknown): string | null {
  return problemOf([key, i], () => LOAD_RECORDS[key](record));
}

const nullableDecimal: Check = (v) => {
  if (v !== null) decimal(v);
};
const cell = object({ value: decimal, amounts: decimals, unpriced: arrayOf(string) }, { strict: true });

/**
 * One row of the opening view kept with the load (shared/balances.ts MatrixRow), valued when it was
 * saved. Its alert count is 0: alerts are counted at each ask (service.ts withAlerts).
 */
export const VIEW_ROW: Check = object(
  {
    uid: string,
    name: string,
    cells: object(Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, cell])), { strict: true }),
    total: decimal,
    cross_risk: nullableDecimal,
    margin_risk: nullableDecimal,
    alerts: (v) => {
      if (v !== 0) throw new ShapeProblem('must be 0');
    },
  },
  { strict: true },
);

/** The opening view's fields other than its rows (those are checked one by one: VIEW_ROW). */
export const VIEW_FIELDS = {
  version: (v: unknown) => {
    if (typeof v !== 'number') expected('number', v);
  },
  quote: string,
  rows: (v: unknown) => {
    if (!Array.isArray(v)) expected('array', v);
  },
  column_totals: object(Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, decimal])), { strict: true }),
  grand_total: decimal,
} satisfies Record<string, Check>;

/** Checks the view's field `key`: "opening.key.path: problem", or null. */
export function viewFieldProblem(key: keyof typeof VIEW_FIELDS, value: unknown): string | null {
  return problemOf(['opening', key], () => VIEW_FIELDS[key](value));
}

/** Checks row `i` of the opening view. */
export function viewRowProblem(i: number, row: unknown): string | null {
  return problemOf(['opening', 'rows', i], () => VIEW_ROW(row));
}
