import { emptyState, type GovernanceRules, type GovernanceState, type RequestPayload } from '../governance/state.ts';
import { applyGovernance } from '../governance/fold.ts';
import type { GovernanceRecord } from '../journal/records.ts';
import { batchSummary, summarize } from '../approvals/summary.ts';
import type { BatchPayload } from '../../../shared/api/batch.ts';

// What a desk has verified of its team's records (verify.ts builds it), and the views of it the desk's
// pages ask for: kept apart so that they read one answer, never the database.

export interface Verified {
  records: GovernanceRecord[];
  links: string[];
  /** Each row's entry and signature as verified: a row still byte-for-byte the same needs no second check. */
  rows: { entry: string; sig: string }[];
  /** The seqs of the records this desk's key signed. */
  own: Set<number>;
  /** Each record's desk, as deskFingerprint names it. */
  desks: string[];
  state: GovernanceState;
}

export const noneVerified = (): Verified => ({ records: [], links: [], rows: [], own: new Set(), desks: [], state: emptyState() });

/** The row a read refused, and the requests whose records (as last verified) sit at or after it: none of them can be trusted now. */
export interface Tampered {
  seq: number;
  reason: string;
  requests: { ref: string; summary: string }[];
}

/** The requests with a record at or after `seq`, as `v` holds them: the refused row's own, and every one after it. */
export function touchedFrom(v: Verified, seq: number): Tampered['requests'] {
  const s = v.state;
  const refs = new Set<string>();
  for (const r of v.records.slice(seq - 1)) if ('ref' in r && s.proposals.has(r.ref)) refs.add(r.ref);
  return [...refs].map((ref) => {
    const p = s.proposals.get(ref)!;
    const summary =
      p.what === 'batch'
        ? batchSummary(JSON.parse(p.payload) as BatchPayload)
        : summarize(p, p.what === 'request' ? (JSON.parse(p.payload) as RequestPayload) : null);
    return { ref, summary };
  });
}

export interface RequestDesks {
  drafted: string | null;
  signed: Map<string, string>;
}

/**
 * Folds a record this desk just wrote into what it verified, as a read would: its own record counts as
 * verified and seen, so cutting it from the store later is noticed too. False when it does not check.
 */
export function foldOwn(
  v: Verified,
  r: GovernanceRecord,
  row: { entry: string; sig: string },
  desk: string,
  rules: GovernanceRules,
): boolean {
  try {
    applyGovernance(v.state, r, Date.parse(r.at), rules);
  } catch {
    return false;
  }
  v.records.push(r);
  v.links.push(r.mac);
  v.rows.push(row);
  v.own.add(r.seq);
  v.desks.push(desk);
  return true;
}

/** The desk at which each request was drafted and each operator signed it, indexed once per state of the records: a page of many requests asks for each. */
export class DeskIndex {
  private last: { of: Verified; length: number; refs: Map<string, RequestDesks> } | null = null;

  of(v: Verified): Map<string, RequestDesks> {
    if (this.last?.of !== v || this.last.length !== v.records.length) this.last = { of: v, length: v.records.length, refs: indexDesks(v) };
    return this.last.refs;
  }
}

function indexDesks(v: Verified): Map<string, RequestDesks> {
  const refs = new Map<string, RequestDesks>();
  const at = (r: string) => refs.get(r) ?? refs.set(r, { drafted: null, signed: new Map() }).get(r)!;
  v.records.forEach((r, i) => {
    if (r.type === 'proposal') at(r.ref).drafted = v.desks[i]!;
    if (r.type === 'signoff') at(r.ref).signed.set(r.signed.operator, v.desks[i]!);
  });
  return refs;
}
