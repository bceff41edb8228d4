import { describe, expect, it } from 'vitest';
import type { Proposal, ProposalWhat } from '../governance/state.ts';
import { summarize } from './summary.ts';

// Each governance change in its own words on the Approvals page: a role change is never "unfreeze the desk".

function change(what: ProposalWhat, payload: object): Proposal {
  return {
    ref: 'r1',
    what,
    profile: 'main',
    payload: JSON.stringify(payload),
    drafted_by: { action: 'propose', operator: 'a', name: 'Alice', signature: 'x' },
    drafted_at: 0,
    signoffs: [],
    rejected: null,
    approved_at: null,
    drafted_seq: 0,
    approved_seq: null,
    effective_at: null,
    dispatched: false,
    decided: null,
    judged: null,
  };
}

const names = (id: string): string => ({ op_bob: 'Bob' })[id] ?? id;

describe('a governance change in words', () => {
  it('names a role change by whom and to what', () => {
    expect(summarize(change('set_role', { id: 'op_bob', role: 'admin', cooling_off_ms: 0 }), null, names)).toBe('make Bob an admin');
  });

  it('gives every other kind its own sentence', () => {
    const said = [
      summarize(change('add_operator', { id: 'op_bob', name: 'Bob', public_key: 'k', role: 'approver' }), null, names),
      summarize(change('remove_operator', { id: 'op_bob' }), null, names),
      summarize(change('remove_address', { currency: 'USDT', chain: 'TRX', address: 'TXabc', added_at: 1 }), null, names),
      summarize(change('policy', { rules: [] }), null, names),
      summarize(change('unfreeze', {}), null, names),
    ];
    expect(said).toEqual([
      'add operator Bob as an approver',
      'remove operator Bob',
      'remove TXabc (USDT on TRX) from the address book',
      'new policy for profile main',
      'unfreeze the desk',
    ]);
  });
});
