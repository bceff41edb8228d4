import { existsSync, readFileSync } from 'node:fs';
import { applyGovernance } from '../governance/fold.ts';
import { emptyState, GovernanceError, type GovernanceRules } from '../governance/state.ts';
import { isGovernance, isIssued, type AnyRecord, type GovernanceRecord } from './records.ts';
import { anchorDamage, anchorPathFor, missingHeadDamage, readAnchor, type AnchorRead } from './anchor.ts';
import { JournalDamagedError, journalIdOf, verifyJournal, type JournalDamage, type Verified } from './verify.ts';
import type { JournalKey } from './mac.ts';
import { journalNameOf, type JournalRegistry } from './registry.ts';
import { decisionWords } from '../../../shared/decisionWords.ts';

// The audit view of a journal: every entry as the Journal page lists it, and a verification that never
// throws but names the first entry that fails and why. Two journals are audited together: the active
// profile's (what was sent) and the desk's governance journal (who signed what), whose operator
// signatures are checked against the operators in force at each entry's time.

export type JournalName = 'profile' | 'governance';

export interface JournalSource {
  journal: JournalName;
  path: string;
  key: JournalKey;
  /** As the journal's writer has them: Verify then finds what the desk's open finds (journal/anchor.ts). */
  registry?: JournalRegistry;
  anchorDir?: string;
}

export interface AuditEntry {
  journal: JournalName;
  seq: number;
  at: string;
  type: string;
  /** The intent (profile journal) or the request/change ref (governance journal). */
  intent: string | null;
  /** Operators named by the entry: signers, approvers, settlers. */
  operators: string[];
  summary: string;
  mac: string;
}

export interface AuditResult {
  journal: JournalName;
  entries: number;
  head_seq: number;
  ok: boolean;
  /** The first entry that fails (null when the failure is the head's, or nothing failed). */
  entry: number | null;
  reason: string | null;
  missing: number;
  /** A last line cut short by a crash: reported, never counted as an entry. */
  torn: { line: number; bytes: number } | null;
}

function operatorsOf(r: AnyRecord): string[] {
  if ('signed' in r) return [r.signed.name];
  if (r.type === 'intent') return [...new Set((r.signatures ?? []).map((s) => s.name))];
  if (r.type === 'approval' || r.type === 'settled' || r.type === 'statement_issued') return [r.by];
  return [];
}

function summaryOf(r: AnyRecord): string {
  switch (r.type) {
    case 'intent':
      return `${r.kind.replace(/_/g, ' ')} ${['amount', 'currency', 'address']
        .map((k) => r.body[k])
        .filter((v) => v !== undefined)
        .join(' ')}`.trim();
    case 'result':
      return `${r.outcome}${r.status ? ` (${r.status})` : ''}${r.label ? `: ${r.label}` : ''}`;
    case 'status':
      return `${r.status}${r.final ? ' (final)' : ''}`;
    case 'sent':
    case 'unconfirmed':
      return `attempt ${r.attempt}${r.type === 'unconfirmed' ? `: ${r.reason}` : ''}`;
    case 'cancelled':
    case 'retry':
    case 'needs_attention':
    case 'rejection':
    case 'freeze':
      return r.reason;
    case 'settled':
      return `${r.outcome}: ${r.note}`;
    case 'proposal':
      return `${r.what.replace(/_/g, ' ')}${r.profile ? ` for ${r.profile}` : ''}`;
    case 'operator_created':
      return `first operator ${r.name}`;
    case 'dispatched':
      return `handed to ${r.profile}`;
    case 'statement_issued':
      return `statement ${r.filename} issued (${r.account}, ${r.currency}, closing ${r.closing}, difference ${r.difference}) · sha256 ${r.sha256}`;
    case 'recovery':
      return `recovery of a wedged desk (${r.credential === 'vault' ? "vault's credential" : 'Sandbox desk'}): ${r.reason}`;
    default:
      return '';
  }
}

/** A record that decided an approval says what decided it (records from before decisions were recorded do not). */
function withDecision(r: AnyRecord, summary: string): string {
  const d = 'decided' in r ? r.decided : undefined;
  return d ? [summary, `decided by ${decisionWords(d)}`].filter(Boolean).join(' · ') : summary;
}

export function toEntry(journal: JournalName, r: AnyRecord): AuditEntry {
  return {
    journal,
    seq: r.seq,
    at: r.at,
    type: r.type,
    intent: isGovernance(r) ? r.ref : isIssued(r) ? r.sha256.slice(0, 16) : r.intent,
    operators: operatorsOf(r),
    summary: withDecision(r, summaryOf(r)),
    mac: r.mac,
  };
}

/** Verified records, or the authentic prefix when the journal is damaged (the page still lists what checks). */
export function readEntries(src: JournalSource): AuditEntry[] {
  if (!existsSync(src.path)) return [];
  try {
    return verifyJournal(src.path, src.key()).records.map((r) => toEntry(src.journal, r));
  } catch (e) {
    if (!(e instanceof JournalDamagedError)) throw e;
    return authenticPrefix(src.path, e.damage.entry).map((r) => toEntry(src.journal, r));
  }
}

// verifyJournal checks lines in order and stops at the first that fails, so the lines before it passed.
function authenticPrefix(path: string, firstBad: number | null): AnyRecord[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const upTo = firstBad === null ? lines.length : firstBad - 1;
  return lines.slice(0, upTo).map((l) => JSON.parse(l) as AnyRecord);
}

/** What the register and the anchor say of a journal that verified on its own (null: nothing). */
function pastDamage(src: JournalSource, v: Verified, anchor: AnchorRead | null, anchorAt: string | null): JournalDamage | null {
  let registered: boolean;
  try {
    registered = src.registry?.has(journalNameOf(src.path)) ?? false;
  } catch (e) {
    return { reason: `The desk cannot tell whether this journal existed before: ${(e as Error).message}`, entry: null, missing: 0 };
  }
  if (registered && !v.headFound) return missingHeadDamage(src.path, v);
  return anchor && anchorAt ? anchorDamage(anchor, v.records, registered, anchorAt) : null;
}

/** Checks every MAC, the chain, the sealed head, the register and anchor and, for governance, every operator signature. */
export function auditJournal(src: JournalSource, rules: GovernanceRules | null): AuditResult {
  const base = { journal: src.journal, missing: 0, torn: null };
  // The anchor first: it moves only after the entry and the head are on disk, so read before the journal
  // it can only be behind what follows, never ahead of it.
  const anchorAt = src.anchorDir ? anchorPathFor(src.anchorDir, src.path) : null;
  const anchor = anchorAt ? readAnchor(anchorAt, src.key(), journalIdOf(src.path)) : null;
  let v;
  try {
    v = verifyJournal(src.path, src.key());
    const d = pastDamage(src, v, anchor, anchorAt);
    if (d) throw new JournalDamagedError(src.path, d);
  } catch (e) {
    if (!(e instanceof JournalDamagedError)) throw e;
    return { ...base, entries: 0, head_seq: 0, ok: false, entry: e.damage.entry, reason: e.damage.reason, missing: e.damage.missing };
  }
  if (!existsSync(src.path) && v.records.length === 0) return { ...base, entries: 0, head_seq: 0, ok: true, entry: null, reason: null };
  const torn = v.torn;
  const ok = { ...base, entries: v.records.length, head_seq: v.headSeq, torn };
  if (rules) {
    const s = emptyState();
    for (const r of v.records) {
      if (!isGovernance(r)) continue;
      try {
        applyGovernance(s, r, Date.parse(r.at), rules);
      } catch (e) {
        if (!(e instanceof GovernanceError) && !(e instanceof SyntaxError)) throw e;
        return {
          ...ok,
          ok: false,
          entry: r.seq,
          reason: `Entry ${r.seq} (${r.type}${'signed' in r ? `, signed by ${(r as GovernanceRecord & { signed: { name: string } }).signed.name}` : ''}): ${e.message}`,
        };
      }
    }
  }
  if (torn) {
    return {
      ...ok,
      ok: false,
      entry: torn.line,
      reason: `The journal ends in ${torn.bytes} bytes that are not a whole entry (line ${torn.line}): an append was cut short, or the tail was truncated.`,
    };
  }
  return { ...ok, ok: true, entry: null, reason: null };
}
