import { existsSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import type { AuditCursor, AuditFilters, AuditKey, AuditPage, AuditQuery, JournalVerifyAnswer } from '../../../shared/journal.ts';
import type { GovernanceRules } from '../governance/state.ts';
import { auditJournal, readEntries, type AuditEntry, type JournalSource } from './audit.ts';
import { auditKey, fingerprint, makeBundle } from './bundle.ts';
import { JournalDamagedError, journalIdOf } from './verify.ts';
import { InputError } from '../errors.ts';

// The Journal page's reads: both journals' entries merged newest first and paged by a keyset cursor,
// Verify over both, and the two exports.

export interface AuditSources {
  profile: JournalSource | null;
  governance: { source: JournalSource; rules: GovernanceRules } | null;
}

const JOURNAL_ORDER = { governance: 0, profile: 1 } as const;
type Key = Pick<AuditEntry, 'at' | 'journal' | 'seq'>;
const newestFirst = (a: Key, b: Key): number =>
  (a.at < b.at ? 1 : a.at > b.at ? -1 : 0) || JOURNAL_ORDER[a.journal] - JOURNAL_ORDER[b.journal] || b.seq - a.seq;

function allEntries(src: AuditSources): AuditEntry[] {
  return [...(src.governance ? readEntries(src.governance.source) : []), ...(src.profile ? readEntries(src.profile) : [])].sort(
    newestFirst,
  );
}

function matches(e: AuditEntry, q: AuditFilters): boolean {
  const op = q.by?.trim().toLowerCase();
  return (
    (!q.type || e.type === q.type) &&
    (!op || e.operators.some((o) => o.toLowerCase().includes(op))) &&
    (!q.intent || e.intent === q.intent.trim()) &&
    (!q.from || e.at.slice(0, 10) >= q.from) &&
    (!q.to || e.at.slice(0, 10) <= q.to)
  );
}

export function auditPage(src: AuditSources, q: AuditQuery): AuditPage {
  const after: AuditCursor | undefined = q.after;
  const rest = allEntries(src).filter((e) => matches(e, q) && (!after || newestFirst(e, after) > 0));
  const items = rest.slice(0, q.limit);
  const last = items.at(-1);
  return { items, next: rest.length > q.limit && last ? { at: last.at, journal: last.journal, seq: last.seq } : null };
}

export function auditVerify(src: AuditSources): JournalVerifyAnswer {
  const journals = [
    ...(src.profile ? [auditJournal(src.profile, null)] : []),
    ...(src.governance ? [auditJournal(src.governance.source, src.governance.rules)] : []),
  ];
  return { verified: journals.every((j) => j.ok), journals };
}

/**
 * The CSV holds what the Journal page's filters show (the operator exports what they see); the signed
 * bundle holds whole journals (its schema refuses filters), since each entry is verified against the last.
 */
export function auditExport(
  src: AuditSources,
  format: 'csv' | 'bundle',
  now: Date,
  filters: AuditFilters = {},
): { filename: string; text: string; entries: number } {
  const day = now.toISOString().slice(0, 10);
  if (format === 'bundle') {
    const sources = [...(src.profile ? [{ source: src.profile }] : []), ...(src.governance ? [src.governance] : [])];
    let text: string;
    try {
      text = makeBundle(sources, now);
    } catch (e) {
      if (!(e instanceof JournalDamagedError)) throw e;
      throw new InputError(
        ['format'],
        `${e.message} A journal that fails verification is not signed: export the CSV, and archive it from the Activity page.`,
      );
    }
    return {
      filename: `journal-bundle-${day}.json`,
      text,
      entries: (JSON.parse(text) as { journals: { lines: unknown[] }[] }).journals.reduce((n, j) => n + j.lines.length, 0),
    };
  }
  const entries = allEntries(src)
    .filter((e) => matches(e, filters))
    .reverse();
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');
  const text = stringify(
    entries.map((e) => [e.journal, e.seq, e.at, e.type, e.intent ?? '', e.operators.join('; '), e.summary, e.mac]),
    {
      header: true,
      columns: ['journal', 'seq', 'at', 'type', 'intent', 'operators', 'summary', 'mac'],
    },
  );
  return { filename: `journal-${day}${filtered ? '-filtered' : ''}.csv`, text, entries: entries.length };
}

/** The fingerprint of each journal's bundle key, as `npm run verify-journal` prints it (a journal with no entry yet has none). */
export function auditKeys(src: AuditSources): AuditKey[] {
  const sources = [...(src.profile ? [src.profile] : []), ...(src.governance ? [src.governance.source] : [])];
  return sources
    .filter((s) => existsSync(s.path))
    .map((s) => {
      const id = journalIdOf(s.path);
      return { journal: s.journal, id, fingerprint: fingerprint(auditKey(s.key(), id).publicKey) };
    });
}
