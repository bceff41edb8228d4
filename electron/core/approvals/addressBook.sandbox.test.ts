import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOf, Withdrawal } from '../../../shared/api/records.ts';
import type { AddressBookEntryView } from '../../../shared/addressBook.ts';
import type { ConfirmState } from '../../../shared/confirm.ts';
import type { PayoutReview } from '../../../shared/payouts.ts';
import type { Review } from '../../../shared/ipc.ts';
import { ApiClient } from '../client/client.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { sandboxProfile } from '../profiles/sandbox.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ensureOperator, TEST_OPERATOR } from './testkit/governed.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';

// The address book as a door for money: what the default policy lets a withdrawal reach. A look-alike of
// a real address must be refused at every door (address book, review, draft, payout file) and change
// nothing; an entry exists only once an operator signed it in the confirmation window, and an entry
// changed, copied or added in the file outside the desk counts for nothing.

const REAL = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const OTHER = 'TN3W4H6rK2ce4vX9YnFxx6HkVW5nS5jF8W';
const LOOKALIKES: [string, string][] = [
  ['a Cyrillic "а"', REAL.replace('a', '\u0430')],
  ['a zero-width space', `${REAL.slice(0, 6)}\u200b${REAL.slice(6)}`],
  ['a right-to-left mark', `\u200f${REAL}`],
];
const sb = useSandbox('address-book', { limits: false });
let core: Core & ConfirmCore;
let operator: string;

async function data<T>(p: Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(r.error!.message);
  return r.data as T;
}
const book = () => data<AddressBookEntryView[]>(core.invoke('addressBookList', {}));
const tickets = async () => (await data<ConfirmState>(core.invokeConfirm('confirmState', {}))).tickets;
const withdrawal = (address: string) => ({ kind: 'withdrawal', input: { currency: 'USDT', chain: 'TRX', address, amount: '12' } });
// The built-in Sandbox profile's governance keeps its own book (the vault's is address-book.json).
const bookPath = () => join(sb.dir, 'desk', 'address-book.sandbox.json');

async function withdrawalsAtExchange(): Promise<number> {
  const { baseUrl, credentials } = sandboxProfile(sb.credentialsPath);
  const c = new ApiClient({ baseUrl, credentials, limitsOff: true });
  const now = Math.floor(Date.now() / 1000);
  const query: [string, string][] = [
    ['from', String(now - 86_400)],
    ['to', String(now + 60)],
    ['limit', '1000'],
  ];
  return (await c.request({ method: 'GET', path: '/wallet/withdrawals', query }, listOf(Withdrawal))).length;
}

beforeAll(async () => {
  core = sandboxCore(sb);
  operator = await ensureOperator(core);
}, 60_000);
afterAll(async () => {
  await core?.close();
});

describe('an address-book entry is an operator’s signed act', () => {
  it('is only asked for from the main window; it exists once an operator signs it, and a withdrawal to it is reviewed as known', async () => {
    const asked = await data<{ ticket: string; title: string }>(
      core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: REAL }),
    );
    expect(asked.title).toContain(REAL);
    expect(await book()).toEqual([]);
    expect((await data<Review>(core.invoke('approvalsReview', { write: withdrawal(REAL) }))).verdict.decision).toBe('block');
    const t = (await tickets()).find((x) => x.id === asked.ticket)!;
    expect(t).toMatchObject({ what: 'address_book' });
    expect(JSON.parse(t.payload)).toEqual({ currency: 'USDT', chain: 'TRX', address: REAL });

    const wrong = await core.invokeConfirm('confirmSign', { ticket: asked.ticket, operator, passphrase: 'not the passphrase' });
    expect(wrong).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not .*passphrase/) } });
    expect(await book()).toEqual([]);

    await data(core.invokeConfirm('confirmSign', { ticket: asked.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    expect(await book()).toEqual([expect.objectContaining({ address: REAL, signed_by: TEST_OPERATOR.name, refused: null })]);
    const review = await data<Review>(core.invoke('approvalsReview', { write: withdrawal(REAL) }));
    expect(review.verdict.decision).toBe('require');
    expect(review.destination_note).toMatch(/address book/);
  });

  it('counts for nothing when the file is changed outside the desk: a moved date, a swapped address, an unsigned line', async () => {
    const original = readFileSync(bookPath(), 'utf8');
    const [entry] = JSON.parse(original) as (Record<string, unknown> & { added_at: number })[];
    const tamperings: [string, unknown[], RegExp, string][] = [
      [
        'an earlier date (to skip the cooling-off)',
        [{ ...entry, added_at: entry!.added_at - 86_400_000 }],
        /does not verify|not an operator in force/,
        REAL,
      ],
      ['another address under the same signature', [{ ...entry, address: OTHER }], /does not verify/, OTHER],
      ['an unsigned line', [{ currency: 'USDT', chain: 'TRX', address: OTHER, added_at: 0 }], /No operator signed/, OTHER],
      [
        'a signer who is no operator',
        [{ ...entry, signed: { ...(entry!.signed as object), operator: 'someone-else' } }],
        /not an operator/,
        REAL,
      ],
    ];
    try {
      for (const [what, file, why, address] of tamperings) {
        writeFileSync(bookPath(), JSON.stringify(file));
        const listed = await book();
        expect(listed, what).toHaveLength(1);
        expect(listed[0]!.refused, what).toMatch(why);
        const review = await data<Review>(core.invoke('approvalsReview', { write: withdrawal(address) }));
        expect(review.verdict.decision, what).toBe('block');
        expect(review.destination_note, what).toBe('on no list');
      }
    } finally {
      writeFileSync(bookPath(), original);
    }
    expect((await book())[0]!.refused).toBeNull();
  });
});

describe('a look-alike destination', () => {
  it.each(LOOKALIKES)('with %s is refused at every door, said by name, and changes nothing', async (_what, address) => {
    const before = { book: readFileSync(bookPath(), 'utf8'), tickets: (await tickets()).length, sent: await withdrawalsAtExchange() };

    const added = await core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address });
    expect(added).toMatchObject({ ok: false, error: { message: expect.stringMatching(/address has .*TRX addresses are plain ASCII/) } });
    for (const channel of ['approvalsReview', 'approvalsDraft'] as const) {
      const r = await core.invoke(channel, { write: withdrawal(address) });
      expect(r, channel).toMatchObject({ ok: false, error: { message: expect.stringMatching(/address has .*look-alike/) } });
    }
    const csv = `currency,chain,address,amount\nUSDT,TRX,${REAL},15\nUSDT,TRX,${address},15\n`;
    const imported = await data<PayoutReview>(
      core.invoke('payoutsImport', { file: 'payouts.csv', content_base64: Buffer.from(csv).toString('base64') }),
    );
    expect(imported.rows.map((r) => r.problems)).toEqual([
      [],
      [{ field: 'address', message: expect.stringMatching(/^The address has .*character/) }],
    ]);

    expect(readFileSync(bookPath(), 'utf8')).toBe(before.book);
    expect((await tickets()).length).toBe(before.tickets);
    expect(await withdrawalsAtExchange()).toBe(before.sent);
  });
});

describe('removing an entry', () => {
  const THIRD = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
  const add = async () => {
    const asked = await data<{ ticket: string }>(core.invoke('addressBookAdd', { currency: 'USDT', chain: 'TRX', address: THIRD }));
    await data(core.invokeConfirm('confirmSign', { ticket: asked.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    return (await book()).find((e) => e.address === THIRD && !e.removed)!;
  };

  it('takes the change quorum, lists the entry as removed, and makes its destination unknown at once; adding it again is a new entry', async () => {
    const entry = await add();
    expect((await data<Review>(core.invoke('approvalsReview', { write: withdrawal(THIRD) }))).verdict.decision).toBe('require');
    const asked = await data<{ ticket: string; title: string }>(
      core.invoke('addressBookRemove', { currency: 'USDT', chain: 'TRX', address: THIRD, added_at: entry.added_at }),
    );
    expect(asked.title).toBe(`Remove ${THIRD} (USDT on TRX) from the address book`);
    // Nothing changes until an operator signs it (the default policy's change quorum: one).
    expect((await book()).find((e) => e.address === THIRD)?.removed).toBe(false);
    await data(core.invokeConfirm('confirmSign', { ticket: asked.ticket, operator, passphrase: TEST_OPERATOR.passphrase }));
    expect((await book()).find((e) => e.address === THIRD)).toMatchObject({ removed: true, refused: expect.stringMatching(/^Removed/) });
    expect((await data<Review>(core.invoke('approvalsReview', { write: withdrawal(THIRD) }))).verdict.decision).toBe('block');
    const again = await core.invoke('addressBookRemove', { currency: 'USDT', chain: 'TRX', address: THIRD, added_at: entry.added_at });
    expect(again).toMatchObject({ ok: false, error: { message: expect.stringMatching(/removed already/) } });

    await new Promise((r) => setTimeout(r, 5));
    const readded = await add();
    expect(readded.added_at).toBeGreaterThan(entry.added_at);
    expect((await data<Review>(core.invoke('approvalsReview', { write: withdrawal(THIRD) }))).verdict.decision).toBe('require');
  });

  it('refuses to remove an entry the book does not hold', async () => {
    const r = await core.invoke('addressBookRemove', { currency: 'USDT', chain: 'TRX', address: OTHER, added_at: 1 });
    expect(r).toMatchObject({ ok: false, error: { message: expect.stringMatching(/not in the address book/) } });
  });
});
