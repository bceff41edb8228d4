import type { KeyObject } from 'node:crypto';
import type pg from 'pg';
import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import { StoreConflictError } from '../approvals/store.ts';
import { Entry, linkOf, signEntry, type DeskCert } from './envelope.ts';

// Appending to a team store: records signed by this desk, then written only where the desk saw the
// records end, so two desks appending at once never both succeed (the loser gets a StoreConflictError
// and reads again).

export const CHANNEL = 'treasury_desk_governance';

export interface SignedRow {
  record: GovernanceRecord;
  text: string;
  sig: string;
}

/**
 * Signs records to follow the `afterSeq`-th, whose link is `prev`. A record is never dated before the one
 * it follows (a given `at`, or the desk's clock, is raised to it): a read refuses a chain that goes back.
 */
export function signRows(
  rows: readonly { body: GovernanceBody; at?: string }[],
  after: { seq: number; link: string; at: string | undefined },
  desk: { team: string; cert: DeskCert; privateKey: KeyObject; now: () => number },
): SignedRow[] {
  const out: SignedRow[] = [];
  let lastAt = after.at;
  let prev = after.link;
  for (const [i, { body, at: given }] of rows.entries()) {
    const seq = after.seq + 1 + i;
    const at = new Date(Math.max(given ? Date.parse(given) : desk.now(), lastAt ? Date.parse(lastAt) : 0)).toISOString();
    const entry: Entry = { v: 1, team: desk.team, seq, at, prev, body, desk: desk.cert };
    const text = JSON.stringify(entry);
    const record = { ...body, seq, at, prev, mac: linkOf(text) } as GovernanceRecord;
    out.push({ record, text, sig: signEntry(desk.privateKey, text) });
    prev = record.mac;
    lastAt = at;
  }
  return out;
}

/**
 * Inserts the signed rows after the `afterSeq`-th in one transaction, with whatever `also` writes in it,
 * and notifies the other desks of the new end; a conflict when the store has moved on.
 */
export async function insertRows(
  client: pg.PoolClient,
  out: readonly SignedRow[],
  afterSeq: number,
  also?: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  try {
    await client.query('BEGIN');
    for (const [i, { record, text, sig }] of out.entries()) {
      // Positioned: the row goes in only where the desk saw the end; the primary key settles a race.
      const r = await client.query(
        'INSERT INTO governance_records (seq, entry, sig) SELECT $1, $2, $3 WHERE (SELECT coalesce(max(seq), 0) FROM governance_records) = $4',
        [record.seq, text, sig, afterSeq + i],
      );
      if (r.rowCount !== 1) throw new StoreConflictError();
    }
    if (also) await also(client);
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, String(afterSeq + out.length)]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    if ((e as { code?: string }).code === '23505') throw new StoreConflictError();
    throw e;
  }
}
