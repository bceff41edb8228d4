import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, Policy, type Policy as PolicyT } from '../../../shared/api/policy.ts';
import { classifyDestination } from './destinations.ts';
import { changeQuorum, evaluate, outflow24h, type PolicyRequest } from './engine.ts';

const base: PolicyRequest = {
  kind: 'withdrawal',
  currency: 'USDT',
  amount: '100',
  destination: 'address_book',
  usdt_price: '1',
  velocity_24h: '0',
};

const tiered: PolicyT = Policy.parse({
  rules: [
    { id: 'block-unknown', match: { kinds: ['withdrawal'], destinations: ['unknown'] }, action: 'block' },
    { id: 'two-above-10k-usdt', match: { usdt_at_least: '10000' }, action: 'require', approvals: 2 },
    { id: 'velocity', match: { currencies: ['BTC'], velocity_24h_at_least: '1' }, action: 'require', approvals: 2 },
    { id: 'small-btc', match: { currencies: ['BTC'], amount_at_least: '0.5' }, action: 'require', approvals: 1 },
    { id: 'small-allowed', match: { usdt_at_least: '0' }, action: 'allow' },
  ],
});

describe('policy engine', () => {
  it('lets the first matching rule decide, and says for every rule why', () => {
    const v = evaluate(tiered, { ...base, amount: '20000' });
    expect(v).toMatchObject({ decision: 'require', rule: 'two-above-10k-usdt', approvals: 2, drafter_may_approve: false });
    expect(v.rules[0]).toMatchObject({
      rule: 'block-unknown',
      matched: false,
      why: ['kind withdrawal is one of withdrawal', "destination is in the desk's address book"],
    });
    expect(v.rules[1]!.why).toEqual(['worth 20,000 USDT, at least 10,000 USDT']);
    expect(v.rules.slice(2).every((r) => !r.matched && r.why[0]!.startsWith('not reached'))).toBe(true);
    expect(evaluate(tiered, { ...base, destination: 'unknown', amount: '20000' })).toMatchObject({
      decision: 'block',
      rule: 'block-unknown',
    });
  });

  it('compares thresholds in the currency and in USDT exactly, without floats', () => {
    const btc = { ...base, currency: 'BTC', usdt_price: '20000' };
    expect(evaluate(tiered, { ...btc, amount: '0.49999999' })).toMatchObject({ rule: 'small-allowed', decision: 'allow' });
    expect(evaluate(tiered, { ...btc, amount: '0.5', usdt_price: '19999.99999999' })).toMatchObject({ rule: 'small-btc', approvals: 1 });
    // 0.5 BTC at 20,000 is exactly 10,000 USDT: the USDT rule comes first and applies at equality.
    expect(evaluate(tiered, { ...btc, amount: '0.5' })).toMatchObject({ rule: 'two-above-10k-usdt', approvals: 2 });
    expect(evaluate(tiered, { ...base, amount: '9999.99999999' })).toMatchObject({ rule: 'small-allowed' });
  });

  it('fails closed without a valuation: a require rule applies, an allow rule does not allow', () => {
    const v = evaluate(tiered, { ...base, currency: 'XYZ', amount: '1', usdt_price: null });
    expect(v).toMatchObject({ decision: 'require', rule: 'two-above-10k-usdt' });
    expect(v.rules[1]!.why[0]).toMatch(/no USDT valuation of XYZ.*fails closed/);
    const allowOnly = Policy.parse({ rules: [{ id: 'allow-small', match: { usdt_at_least: '0' }, action: 'allow' }] });
    expect(evaluate(allowOnly, { ...base, usdt_price: null })).toMatchObject({ decision: 'block', rule: null });
  });

  it('counts the rolling 24-hour outflow, approved and in flight included, with this write', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    const h = 3_600_000;
    const intents = [
      { kind: 'withdrawal' as const, state: 'done', created_at: now - 23 * h, body: { currency: 'BTC', amount: '0.4' } },
      { kind: 'withdrawal' as const, state: 'approved', created_at: now - h, body: { currency: 'BTC', amount: '0.3' } },
      { kind: 'uid_transfer' as const, state: 'in_flight', created_at: now - h, body: { currency: 'BTC', amount: '0.2' } },
      { kind: 'withdrawal' as const, state: 'done', created_at: now - 25 * h, body: { currency: 'BTC', amount: '5' } },
      { kind: 'withdrawal' as const, state: 'refused', created_at: now - h, body: { currency: 'BTC', amount: '5' } },
      { kind: 'withdrawal' as const, state: 'pending_approval', created_at: now - h, body: { currency: 'BTC', amount: '5' } },
      { kind: 'own_transfer' as const, state: 'done', created_at: now - h, body: { currency: 'BTC', amount: '5' } },
      { kind: 'withdrawal' as const, state: 'done', created_at: now - h, body: { currency: 'ETH', amount: '5' } },
    ];
    const velocity = outflow24h(intents, 'BTC', now);
    expect(velocity).toBe('0.9');
    const btc = { ...base, currency: 'BTC', usdt_price: '1', velocity_24h: velocity };
    expect(evaluate(tiered, { ...btc, amount: '0.09999999' })).toMatchObject({ rule: 'small-allowed' });
    expect(evaluate(tiered, { ...btc, amount: '0.1' })).toMatchObject({ rule: 'velocity', approvals: 2 });
  });

  it("matches a rule's currencies whatever their case, so a lower-case rule still holds its quorum", () => {
    const typed = Policy.parse({
      rules: [
        { id: 'two-for-usdt', match: { currencies: ['usdt'] }, action: 'require', approvals: 2 },
        { id: 'rest', match: {}, action: 'require', approvals: 1 },
      ],
    });
    expect(evaluate(typed, base)).toMatchObject({ rule: 'two-for-usdt', approvals: 2 });
    expect(evaluate(typed, { ...base, currency: 'BTC' })).toMatchObject({ rule: 'rest', approvals: 1 });
  });

  it('blocks when no rule matches: no rule, no money', () => {
    const narrow = Policy.parse({ rules: [{ id: 'only-usdt', match: { currencies: ['USDT'] }, action: 'allow' }] });
    expect(evaluate(narrow, { ...base, currency: 'BTC' })).toMatchObject({ decision: 'block', rule: null });
  });

  it("by default blocks money to a destination on no list and asks one confirmation, the drafter's own allowed, for the rest", () => {
    expect(evaluate(DEFAULT_POLICY, { ...base, destination: 'unknown' })).toMatchObject({ decision: 'block', rule: 'unknown-destination' });
    // A UID transfer to another account is money leaving for a destination on no list, as a withdrawal is.
    const uid = evaluate(DEFAULT_POLICY, { ...base, kind: 'uid_transfer', destination: 'unknown' });
    expect(uid).toMatchObject({ decision: 'block', rule: 'unknown-destination', approvals: 0 });
    expect(uid.rules[1]!.why).toEqual(['kind uid_transfer is one of withdrawal, uid_transfer', 'destination is on no list']);
    expect(evaluate(DEFAULT_POLICY, base)).toMatchObject({ decision: 'require', approvals: 1, drafter_may_approve: true });
    expect(evaluate(DEFAULT_POLICY, { ...base, kind: 'own_transfer', destination: null })).toMatchObject({
      decision: 'require',
      approvals: 1,
    });
  });

  it('asks for operator and policy changes the quorum of the strictest rule', () => {
    expect(changeQuorum(DEFAULT_POLICY)).toBe(1);
    expect(changeQuorum(tiered)).toBe(2);
  });

  it('refuses a policy that does not parse, naming the problem', () => {
    const r = Policy.safeParse({ rules: [{ id: 'x', match: { amount_at_least: '1e9' }, action: 'require' }] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message).join('; ')).toMatch(/plain decimal|how many approvals/);
  });
});

describe('destinations', () => {
  const now = Date.UTC(2026, 10, 22);
  const day = 86_400_000;
  const q = { currency: 'USDT', chain: 'TRX', address: 'Tabc' };
  it('counts only verified saved addresses, and address-book entries once they have cooled off', () => {
    expect(classifyDestination(q, [{ ...q, verified: '0' }], [], now, day).destination).toBe('unknown');
    expect(classifyDestination(q, [{ ...q, verified: '1' }], [], now, day).destination).toBe('verified_saved');
    expect(classifyDestination(q, [], [{ ...q, added_at: now - day + 1 }], now, day)).toMatchObject({
      destination: 'unknown',
      why: expect.stringMatching(/cooling off until/),
    });
    expect(classifyDestination(q, [], [{ ...q, added_at: now - day }], now, day).destination).toBe('address_book');
    expect(classifyDestination({ ...q, memo: '7' }, [{ ...q, verified: '1' }], [], now, day).destination).toBe('unknown');
    expect(classifyDestination({ ...q, chain: 'ETH' }, [{ ...q, verified: '1' }], [], now, day).destination).toBe('unknown');
  });
});
