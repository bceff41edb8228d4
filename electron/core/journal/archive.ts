import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { applyRecord, isFinished, type IntentView } from './intents.ts';
import { headPath } from './head.ts';
import { Journal, type JournalOptions } from './journal.ts';
import { RecordBody, type AnyRecord } from './records.ts';
import type { JournalDamage } from './verify.ts';

// The way forward from a journal that failed verification. It is kept whole as evidence (archive/),
// a new journal starts, and every write the old one left unfinished is carried over as "needs your
// attention": the old entries may be forged, so none of them is ever sent again; an operator settles
// each one against the exchange's records.

export interface Archived {
  journal: Journal;
  archivedTo: string;
  carriedOver: number;
}

/** The intents an unverified journal says are unfinished, read leniently (entries that do not parse are skipped). */
function unfinishedUnverified(path: string): IntentView[] {
  const views = new Map<string, IntentView>();
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  for (const line of text.split('\n')) {
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const { seq, at, prev, mac, hash, ...rest } = raw;
    const body = RecordBody.safeParse(rest);
    if (!body.success || typeof at !== 'string' || Number.isNaN(Date.parse(at))) continue;
    try {
      applyRecord(views, { ...body.data, seq: Number(seq), at, prev: String(prev), mac: String(mac ?? hash) } as AnyRecord);
    } catch {
      // An entry that does not fit its intent is part of the damage; the archived file keeps it.
    }
  }
  return [...views.values()].filter((v) => !isFinished(v) && v.state !== 'pending_approval');
}

export function archiveAndRestart(path: string, damage: JournalDamage, opts: JournalOptions): Archived {
  const now = (opts.now ?? Date.now)();
  const dir = join(dirname(path), 'archive');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const archivedTo = join(dir, `${basename(path, '.jsonl')}-${stamp}.jsonl`);
  const carried = unfinishedUnverified(path);
  if (existsSync(path)) renameSync(path, archivedTo);
  if (existsSync(headPath(path))) renameSync(headPath(path), headPath(archivedTo));
  // The operator's act of starting anew: the register keeps the name, the old anchor is set aside.
  const journal = Journal.open(path, { ...opts, restart: true });
  for (const v of carried) {
    journal.append({
      type: 'intent',
      intent: v.id,
      kind: v.kind,
      client_id: v.client_id,
      body: { ...v.body },
      note: `carried over from ${basename(archivedTo)}`,
    });
    journal.append({
      type: 'needs_attention',
      intent: v.id,
      reason: `Carried over from a journal that failed verification (${damage.reason.slice(0, 300)}) and was archived as ${basename(archivedTo)}. The old journal said this write was "${v.state.replace('_', ' ')}", but it cannot be trusted, so the desk will never send it: check the exchange's records${v.client_id ? ` for id ${v.client_id}` : ''}, then settle it.`,
    });
  }
  return { journal, archivedTo, carriedOver: carried.length };
}
