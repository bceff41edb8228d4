import { describe, expect, it } from 'vitest';
import type { WithdrawalChain, WithdrawalLimits } from '../../../shared/api/records.ts';
import { MAX_PAYOUT_ROWS, PayoutFile } from '../../../shared/payouts.ts';
import { checkRows, type CheckContext } from './check.ts';
import { parsePayoutFile } from './parse.ts';

// The exchange's records as the Sandbox lists them (simulator/ledger/catalog.ts), with one chain of each
// kind the checks tell apart: a memo chain, a disabled chain, a chain with withdrawals off.

const status = (currency: string, o: Partial<WithdrawalLimits> = {}): WithdrawalLimits => ({
  currency,
  withdraw_fix: '1',
  withdraw_percent: '0%',
  withdraw_day_limit: '5000',
  withdraw_day_limit_remain: '1000',
  withdraw_amount_mini: '10',
  withdraw_eachtime_limit: '600',
  ...o,
});
const chain = (name: string, o: Partial<WithdrawalChain> = {}): WithdrawalChain => ({
  chain: name,
  name_en: name,
  is_disabled: 0,
  is_deposit_disabled: 0,
  is_withdraw_disabled: 0,
  decimal: '6',
  is_tag: 0,
  ...o,
});

const CTX: CheckContext = {
  statuses: [
    status('USDT', { withdraw_fix_on_chains: { TRX: '1', TON: '0.3', ETH: '4.5' } }),
    status('BTC', {
      withdraw_amount_mini: '0.001',
      withdraw_fix: '0.0002',
      withdraw_eachtime_limit: '50',
      withdraw_day_limit_remain: '40',
    }),
  ],
  chains: new Map<string, WithdrawalChain[] | string>([
    ['USDT', [chain('TRX'), chain('ETH'), chain('TON', { is_tag: 1 }), chain('OLD', { is_disabled: 1 })]],
    ['BTC', [chain('BTC', { decimal: '8' }), chain('BSC', { decimal: '8', is_withdraw_disabled: 1 })]],
  ]),
};

const ADDR = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
function check(csv: string, ctx = CTX) {
  const p = parsePayoutFile(Buffer.from(csv, 'utf8'));
  expect(p.problems).toEqual([]);
  return checkRows(p.rows, p.columns, ctx);
}
const problemsOf = (csv: string) => check(`currency,chain,address,memo,amount,reference\n${csv}\n`).rows[0]!.problems;

describe('a payout row is checked as the withdraw form checks a withdrawal', () => {
  it('accepts a good row and says its fee and what arrives', () => {
    const r = check(`currency,chain,address,memo,amount,reference\nUSDT,TRX,${ADDR},,25,INV-1\n`).rows[0]!;
    expect(r).toMatchObject({ row: 1, line: 2, problems: [], fee: '1', arrives: '24', duplicate_of: null, reference: 'INV-1' });
  });

  it.each([
    ['a missing currency', `,TRX,${ADDR},,25,`, 'currency', /currency is missing/],
    ['a currency the exchange does not list', `usdt,TRX,${ADDR},,25,`, 'currency', /lists no withdrawals of "usdt".*case-sensitive/],
    ['a missing chain', `USDT,,${ADDR},,25,`, 'chain', /chain is missing/],
    ['a chain the currency does not have', `USDT,SOL,${ADDR},,25,`, 'chain', /"SOL" is not a chain of USDT \(it has TRX, ETH, TON, OLD\)/],
    ['a disabled chain (is_disabled)', `USDT,OLD,${ADDR},,25,`, 'chain', /OLD chain is disabled \(is_disabled\)/],
    ['a chain with withdrawals off (is_withdraw_disabled)', `BTC,BSC,${ADDR},,0.01,`, 'chain', /Withdrawals on the BSC chain are disabled/],
    ['a missing address', 'USDT,TRX,,,25,', 'address', /address is missing/],
    ['an address with a space', 'USDT,TRX,TQn9Y2 khEs,,25,', 'address', /space/],
    ['an address over 256 characters', `USDT,TRX,${'T'.repeat(257)},,25,`, 'address', /longer than 256/],
    ['no memo on a memo chain (is_tag)', `USDT,TON,${ADDR},,25,`, 'memo', /TON chain needs a memo or tag/],
    ['a memo on a chain without memos', `USDT,TRX,${ADDR},12345,25,`, 'memo', /TRX chain takes no memo/],
    ['a missing amount', `USDT,TRX,${ADDR},,,`, 'amount', /amount is missing/],
    ['an amount that is not a plain number', `USDT,TRX,${ADDR},,"1,000",`, 'amount', /plain decimal number/],
    ['a negative amount', `USDT,TRX,${ADDR},,-25,`, 'amount', /plain decimal number/],
    [
      'more decimals than the chain takes',
      `USDT,TRX,${ADDR},,25.1234567,`,
      'amount',
      /more than 6 decimal places \(this chain's precision\)/,
    ],
    ['more than 8 decimals (§8.5)', `BTC,BTC,${ADDR},,0.123456789,`, 'amount', /more than 8 decimal places/],
    ['an amount under the minimum', `USDT,TRX,${ADDR},,9.99,`, 'amount', /minimum withdrawal is 10/],
    ['an amount over the per-withdrawal maximum', `USDT,TRX,${ADDR},,601,`, 'amount', /maximum per withdrawal is 600/],
    ['an amount over what is left today', `BTC,BTC,${ADDR},,50,`, 'amount', /Only 40 remains of today's withdrawal limit/],
    ['a reference over 100 characters', `USDT,TRX,${ADDR},,25,${'r'.repeat(101)}`, 'reference', /longer than 100/],
    ['a control character', `USDT,TRX,"${ADDR}\u0007",,25,`, 'address', /control character/],
    ['a row with a field missing', `USDT,TRX,${ADDR},25`, 'row', /4 fields and the header 6/],
  ])('names %s', (_what, row, field, message) => {
    const problems = problemsOf(row);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.find((p) => p.field === field)?.message ?? JSON.stringify(problems)).toMatch(message);
  });

  it('refuses an amount the fee would eat whole', () => {
    const ctx: CheckContext = { ...CTX, statuses: [status('USDT', { withdraw_amount_mini: '0.5', withdraw_fix_on_chains: { TRX: '1' } })] };
    const r = check(`currency,chain,address,amount\nUSDT,TRX,${ADDR},1\n`, ctx).rows[0]!;
    expect(r.problems).toEqual([{ field: 'amount', message: 'The fee (1) takes the whole amount.' }]);
  });

  it("refuses a row whose currency's chains could not be read, saying why", () => {
    const ctx: CheckContext = { ...CTX, chains: new Map([['USDT', 'The exchange does not know this currency.']]) };
    expect(check(`currency,chain,address,amount\nUSDT,TRX,${ADDR},25\n`, ctx).rows[0]!.problems).toEqual([
      { field: 'chain', message: 'The chains of USDT could not be read: The exchange does not know this currency.' },
    ]);
  });

  it("shares the day's remaining limit among the rows of one currency, in file order", () => {
    const rows = check(`currency,chain,address,amount\n${[1, 2, 3].map((i) => `USDT,TRX,${ADDR},4${i}0`).join('\n')}\n`).rows;
    expect(rows.map((r) => r.problems.length)).toEqual([0, 0, 1]);
    expect(rows[2]!.problems[0]).toEqual({
      field: 'amount',
      message: "With the rows above it, this file withdraws 1260 USDT: more than the 1000 left of today's limit.",
    });
  });

  it('totals the valid rows per currency with their fees', () => {
    const { totals } = check(
      `currency,chain,address,memo,amount\nUSDT,TRX,${ADDR},,25\nUSDT,TON,EQx,77,30.5\nBTC,BTC,bc1q,,0.01\nUSDT,TRX,${ADDR},,5\n`,
    );
    expect(totals).toEqual([
      { currency: 'USDT', amount: '55.5', fee: '1.3', count: 2 },
      { currency: 'BTC', amount: '0.01', fee: '0.0002', count: 1 },
    ]);
  });
});

describe('duplicated rows', () => {
  it('flags a row with the same destination, amount and reference as an earlier one, the amount compared as a number', () => {
    const rows = check(
      `currency,chain,address,memo,amount,reference\nUSDT,TRX,${ADDR},,25,A\nUSDT,TRX,${ADDR},,25.00,A\nUSDT,TRX,${ADDR},,25,A\n`,
    ).rows;
    expect(rows.map((r) => r.duplicate_of)).toEqual([null, 1, 1]);
    expect(rows[1]!.problems).toEqual([
      {
        field: 'row',
        message: 'Same destination, amount and reference as row 1: a second payment? Remove one, or give each its own reference.',
      },
    ]);
    expect(rows[0]!.problems).toEqual([]);
  });

  it.each([
    ['another reference', `USDT,TRX,${ADDR},,25,B`],
    ['another amount', `USDT,TRX,${ADDR},,26,A`],
    ['another address', 'USDT,TRX,TXYZ9Y2khEsLJW1ChVWFMSMeRDow5K,,25,A'],
    ['another chain', `USDT,ETH,${ADDR},,25,A`],
    ['another memo', 'USDT,TON,EQx,78,25,A'],
  ])('does not flag a row with %s', (_what, second) => {
    const first = _what === 'another memo' ? 'USDT,TON,EQx,77,25,A' : `USDT,TRX,${ADDR},,25,A`;
    const rows = check(`currency,chain,address,memo,amount,reference\n${first}\n${second}\n`).rows;
    expect(rows.map((r) => r.duplicate_of)).toEqual([null, null]);
  });
});

describe('the file as a whole', () => {
  const problem = (bytes: Buffer | string) => parsePayoutFile(typeof bytes === 'string' ? Buffer.from(bytes) : bytes).problems;

  it('hashes the exact bytes (SHA-256 of "abc", FIPS 180-2 vector) and reads a BOM and CRLF lines', () => {
    expect(parsePayoutFile(Buffer.from('abc')).sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const p = parsePayoutFile(Buffer.from(`\ufeffCurrency,Chain,Address,Amount\r\nUSDT,TRX,${ADDR},25\r\n`));
    expect(p.problems).toEqual([]);
    expect(p.rows[0]!.cells).toMatchObject({ currency: 'USDT', amount: '25', memo: '', reference: '' });
  });

  it('counts lines as an editor does: blank lines skipped, a quoted field over two lines', () => {
    const p = parsePayoutFile(
      Buffer.from(`currency,chain,address,memo,amount\n\nUSDT,TON,EQx,"line one\nline two",25\nUSDT,TRX,${ADDR},,26\n`),
    );
    expect(p.rows.map((r) => [r.row, r.line])).toEqual([
      [1, 3],
      [2, 5],
    ]);
  });

  it.each([
    ['bytes that are not UTF-8', Buffer.from([0x63, 0x75, 0xff, 0x0a]), /not UTF-8/],
    ['an empty file', '', /empty/],
    ['a header alone', 'currency,chain,address,amount\n', /no payout under it/],
    ['a column it does not know', 'currency,chain,address,ammount\nUSDT,TRX,x,1\n', /"ammount", which is not a column/],
    ['a required column missing', 'currency,address,amount\nUSDT,x,1\n', /no "chain" column/],
    ['a column named twice', 'currency,chain,address,amount,amount\nUSDT,TRX,x,1,2\n', /"amount" twice/],
    ['a quote never closed', `currency,chain,address,amount\nUSDT,TRX,"${ADDR},25\n`, /not valid CSV at line 2/],
    [
      `more than ${MAX_PAYOUT_ROWS} rows`,
      `currency,chain,address,amount\n${`USDT,TRX,${ADDR},25\n`.repeat(MAX_PAYOUT_ROWS + 1)}`,
      /at most 500/,
    ],
  ])('refuses %s, reading no row', (_what, bytes, message) => {
    const p = parsePayoutFile(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    expect(p.rows).toEqual([]);
    expect(problem(bytes)[0]!.message).toMatch(message);
  });
});

describe("the payout channel's request", () => {
  it('refuses a file name with a line break, a size over the cap, and content that is not base64', () => {
    expect(PayoutFile.safeParse({ file: 'payouts.csv', content_base64: 'YQ==' }).success).toBe(true);
    expect(PayoutFile.safeParse({ file: 'payouts.csv\nApproved by the CFO', content_base64: 'YQ==' }).error?.issues[0]?.message).toBe(
      'the file name has a control character in it',
    );
    expect(PayoutFile.safeParse({ file: 'p.csv', content_base64: 'A'.repeat(1_400_000) }).error?.issues[0]?.message).toMatch(
      /larger than 1024 KiB/,
    );
    expect(PayoutFile.safeParse({ file: 'p.csv', content_base64: 'not base64!' }).error?.issues[0]?.message).toBe(
      'the file content must be base64',
    );
  });
});
