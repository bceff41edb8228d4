import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GovernanceRules } from '../../governance/state.ts';
import { textFor } from '../../governance/state.ts';
import { Approvals } from '../../approvals/service.ts';
import type { GovernanceBody } from '../../journal/records.ts';
import { signAs, type OperatorKey } from '../../operators/keys.ts';
import { PgGovernanceStore } from '../pgStore.ts';

// Desks sharing one team store, each with its own folder (operator keys, desk key, pin) and its own
// Approvals over a PgGovernanceStore: for the team store's integration tests.

export const TEAM_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };
export const TEAM_RULES: GovernanceRules = { coolingOffMs: 0, minCoolingOffMs: 0, profiles: () => ['p1'] };

export interface TeamDesk {
  dir: string;
  store: PgGovernanceStore;
  approvals: Approvals;
  /** Each call to onRecordsChanged, in order (null: read again and verified). */
  changes: (Error | null)[];
}

export async function openTeamDesk(url: string, cleanup: (() => Promise<void>)[], more: { recheckMs?: number } = {}): Promise<TeamDesk> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-team-'));
  const store = await PgGovernanceStore.open({ url, dir, rules: TEAM_RULES, ...more });
  const changes: (Error | null)[] = [];
  const approvals = new Approvals({
    store,
    rules: TEAM_RULES,
    credential: 'none',
    scrypt: TEAM_SCRYPT,
    onRecordsChanged: (e) => changes.push(e),
  });
  cleanup.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, store, approvals, changes };
}

/** A freeze signed by `key`'s operator: a record any operator in force may append. */
export async function freezeBy(key: OperatorKey, passphrase: string, reason: string): Promise<GovernanceBody> {
  const ref = randomUUID();
  const signature = await signAs(key, passphrase, textFor('freeze', ref, 'freeze', '{}', reason));
  return { type: 'freeze', ref, reason, signed: { action: 'freeze', operator: key.id, name: key.name, signature } };
}
