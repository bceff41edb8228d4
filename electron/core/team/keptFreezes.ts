import type { GovernanceBody } from '../journal/records.ts';
import type { GovernanceRules, GovernanceState } from '../governance/state.ts';
import { applyGovernance } from '../governance/fold.ts';
import { StoreConflictError } from '../approvals/store.ts';
import type { DeskIdentity } from './deskIdentity.ts';

// A freeze signed while the team store was unreachable is kept on the desk (DeskIdentity) and goes in
// before any state is read from the store again: a desk that could not reach the team still stops it.

export interface KeptTarget {
  /** The state of the records as last verified. */
  state(): GovernanceState;
  /** How many records were last verified: a kept freeze goes in after them. */
  end(): number;
  insert(body: GovernanceBody, afterSeq: number): Promise<unknown>;
  /** Reads the records again, after another desk's append got there first. */
  refresh(): Promise<unknown>;
}

/** Posts the freezes kept while offline, each where the records now end; one no longer needed is dropped. */
export async function postKept(identity: DeskIdentity, store: KeptTarget, rules: GovernanceRules, now: () => number): Promise<void> {
  for (const body of identity.kept()) {
    for (let attempt = 1; ; attempt++) {
      try {
        // Frozen already, or its operator no longer in force: there is nothing left for it to do.
        applyGovernance(structuredClone(store.state()), body, now(), rules);
      } catch {
        break;
      }
      try {
        await store.insert(body, store.end());
        break;
      } catch (e) {
        if (!(e instanceof StoreConflictError) || attempt >= 5) throw e;
        await store.refresh();
      }
    }
    identity.dropKept(body);
  }
}
