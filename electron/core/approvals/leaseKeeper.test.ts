import { describe, expect, it } from 'vitest';
import { keepLeases, type LeaseTick } from './leaseKeeper.ts';
import type { SendLease } from './store.ts';

// A take-over held (a freeze, a journal still reconciling) must say so once and go on once the hold ends:
// a silent hold made a failed take-over in CI impossible to read.

function tick(hold: { reason: string | null }) {
  const lines: string[] = [];
  const sent: string[] = [];
  let owner = 'desk-aaaaaaaaaaaa';
  let listed = true;
  const lease = (): SendLease => ({ ref: 'w1', request: 'r1', owner, mine: owner === 'me', expired: owner !== 'me' });
  const t = {
    approvals: {
      leases: {
        open: async () => (listed ? [lease()] : []),
        renew: async () => (owner === 'me' ? { holder: 'mine', leftMs: 30_000 } : { holder: 'other', leftMs: 0 }),
        claim: async () => ((owner = 'me'), true),
        finish: async () => {},
      },
      load: async () => ({
        proposals: new Map([
          ['r1', { ref: 'w1', what: 'withdrawal', payload: JSON.stringify({ kind: 'withdrawal', body: { amount: '1' } }) }],
        ]),
      }),
      signaturesOf: () => [{ name: 'Ann' }, { name: 'Bob' }],
    },
    session: {
      id: 'sandbox',
      journal: { intent: () => undefined },
      writes: { dispatchApproved: async (ref: string) => void sent.push(ref) },
    },
    handing: new Set<string>(),
    hold: async () => hold.reason,
    heldFor: new Map<string, string>(),
    log: (l: string) => lines.push(l),
  } as unknown as LeaseTick;
  return { t, lines, sent, unlist: () => (listed = false) };
}

describe('keepLeases', () => {
  it('logs a held take-over once per reason, and hands the write over once the hold ends', async () => {
    const hold = { reason: 'the desk is frozen (by Ann)' as string | null };
    const { t, lines, sent } = tick(hold);
    await keepLeases(t);
    await keepLeases(t);
    expect(lines).toEqual(['[approvals] send lease w1: held, the desk is frozen (by Ann)']);
    expect(sent).toEqual([]);
    hold.reason = null;
    await keepLeases(t);
    expect(sent).toEqual(['w1']);
    expect(lines.at(-1)).toMatch(/^\[approvals\] w1: this desk handed it over and stopped/);
  });

  it('forgets a held take-over once its lease is no longer open here', async () => {
    const { t, unlist } = tick({ reason: 'the desk is frozen (by Ann)' });
    await keepLeases(t);
    expect([...t.heldFor.keys()]).toEqual(['w1']);
    unlist();
    await keepLeases(t);
    expect(t.heldFor.size).toBe(0);
  });
});
