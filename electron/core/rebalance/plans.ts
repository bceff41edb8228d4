import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { PlanRequest } from '../../../shared/rebalance.ts';
import type { ApiClient } from '../client/client.ts';
import { InputError } from '../errors.ts';
import { readBalances } from './balances.ts';
import { plan as makePlan, type Plan } from './planner.ts';
import { accountKey, type AccountRef } from './route.ts';
import { equalize, sweepToMain, type InScope } from './targets.ts';

// A plan is made from balances read now and drafted later by its id; the shelf keeps it only as long as
// those balances can be trusted, and only for the profile that read them.

/** Plans are kept this long for a draft; after that the balances they were made from are too old. */
export const PLAN_TTL_MS = 30 * 60_000;

/** The plan a request asks for, from the balances of its accounts read now. */
export async function computePlan(client: ApiClient, req: z.output<typeof PlanRequest>): Promise<Plan> {
  const accounts = req.preset ? req.accounts! : req.lines!.map((l) => l.account);
  const main: AccountRef = { owner: 'main', kind: 'spot' };
  const read = req.preset?.kind === 'sweep' && !accounts.some((a) => accountKey(a) === accountKey(main)) ? [...accounts, main] : accounts;
  let held: Map<string, string>;
  try {
    held = await readBalances(client, read, req.currency);
  } catch (e) {
    // readBalances refuses an account it cannot read with a plain Error (the operator's choice of account);
    // the exchange's and the network's errors keep their own kinds.
    if (e instanceof Error && e.constructor === Error) throw new InputError(['accounts'], e.message);
    throw e;
  }
  const bal = (a: AccountRef) => ({ account: a, balance: held.get(accountKey(a)) ?? '0' });
  let scope: InScope[];
  if (req.preset?.kind === 'equalize') scope = equalize(accounts.map(bal));
  else if (req.preset?.kind === 'sweep')
    scope = sweepToMain(accounts.filter((a) => a.owner !== 'main').map(bal), req.preset.ceiling, held.get(accountKey(main)) ?? '0');
  else scope = req.lines!.map((l) => ({ ...bal(l.account), target: l.target }));
  try {
    return makePlan(req.currency, scope);
  } catch (e) {
    throw new InputError(['lines'], (e as Error).message);
  }
}

/** The plans computed and not yet drafted, by id. */
export class PlanShelf {
  private readonly plans = new Map<string, { plan: Plan; profile: string; read_at: number }>();

  constructor(private readonly now: () => number) {}

  /** Keeps a plan for `profile` and gives its id; plans past their time are dropped here. */
  keep(plan: Plan, profile: string): { id: string; read_at: number } {
    const id = randomBytes(9).toString('base64url');
    const read_at = this.now();
    for (const [k, v] of this.plans) if (v.read_at + PLAN_TTL_MS < read_at) this.plans.delete(k);
    this.plans.set(id, { plan, profile, read_at });
    return { id, read_at };
  }

  /** The plan `id` if `profile` made it and it is still fresh. */
  fresh(id: string, profile: string): Plan {
    const kept = this.plans.get(id);
    if (!kept || kept.profile !== profile || kept.read_at + PLAN_TTL_MS < this.now()) {
      throw new InputError(['plan'], 'That plan is gone or older than 30 minutes: compute it again from the current balances.');
    }
    return kept.plan;
  }

  drop(id: string): void {
    this.plans.delete(id);
  }
}
