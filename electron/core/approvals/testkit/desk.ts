import type { Policy, Verdict, WriteFacts } from '../../../../shared/api/policy.ts';
import { testJournalKey } from '../../journal/testkit/key.ts';
import { evaluate } from '../../policy/engine.ts';
import type { GovernanceRules } from '../../governance/state.ts';
import { LocalGovernanceStore } from '../localStore.ts';
import { Approvals } from '../service.ts';

// One governance store and its Approvals on a test clock, with operators whose passphrases the test
// knows: for unit tests of the fold and the executor's gate.

export const HOUR = 3_600_000;
export const PASS = { alice: 'alice passphrase 1', bob: 'bob passphrase 22', carol: 'carol passphrase 3' };
export const FAST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

export interface TestDesk {
  desk: Approvals;
  store: LocalGovernanceStore;
  clock: { now: number };
  rules: GovernanceRules;
  /** The same folder opened again (a restart), with other rules if given. */
  reopen(rules?: Partial<GovernanceRules>): Promise<TestDesk>;
}

export function openTestDesk(
  dir: string,
  clock = { now: Date.parse('2026-01-01T00:00:00Z') },
  over: Partial<GovernanceRules> = {},
): TestDesk {
  const rules: GovernanceRules = { coolingOffMs: 24 * HOUR, profiles: () => ['p1'], ...over };
  const store = new LocalGovernanceStore(dir, 'governance', { key: testJournalKey, now: () => clock.now });
  const desk = new Approvals({ store, rules, credential: 'none', now: () => clock.now, scrypt: FAST_SCRYPT });
  const t: TestDesk = {
    desk,
    store,
    clock,
    rules,
    reopen: async (r = {}) => {
      await store.close();
      return openTestDesk(dir, clock, { ...over, ...r });
    },
  };
  return t;
}

export const facts = (amount: string): WriteFacts => ({ currency: 'USDT', amount, destination: 'address_book', usdt_price: '1' });

export const withdrawalBody = (ref: string, amount: string): Record<string, string> => ({
  withdraw_order_id: ref,
  currency: 'USDT',
  amount,
  address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA',
  chain: 'TRX',
});

/** The verdict a drafter's review gives a withdrawal to the address book, with the outflow it saw. */
export function reviewed(policy: Policy, amount: string, velocity = '0'): Verdict {
  return evaluate(policy, { kind: 'withdrawal', ...facts(amount), velocity_24h: velocity });
}

/** Alice first, then Bob and Carol proposed by her and in force after the cooling-off (under the default policy). */
export async function threeOperators(t: TestDesk): Promise<{ alice: string; bob: string; carol: string }> {
  const alice = await t.desk.createFirstOperator('Alice', PASS.alice);
  const bob = await t.desk.proposeOperator('Bob', PASS.bob, alice, PASS.alice);
  const carol = await t.desk.proposeOperator('Carol', PASS.carol, alice, PASS.alice);
  t.clock.now += t.rules.coolingOffMs + 1;
  return { alice, bob, carol };
}

/** A policy proposed and signed by `by`, in force once its cooling-off has passed. */
export async function putInForce(t: TestDesk, policy: Policy, by: string, pass: string): Promise<void> {
  await t.desk.sign((await t.desk.policyTicket('p1', policy)).id, by, pass);
  t.clock.now += t.rules.coolingOffMs + 1;
}
