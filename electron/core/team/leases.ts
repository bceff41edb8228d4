import type pg from 'pg';
import type { LeaseRenewal, SendLease, SendLeases } from '../approvals/store.ts';

// The send leases of a team store (migrations/0002_send_leases.ts). Every expiry is set and compared by
// the database's now(), so desks whose clocks disagree still agree on which lease has run out.

export const DEFAULT_LEASE_MS = 30_000;

/**
 * Where one write's send lease stands (docs/team.md §Send leases): open (its holder may send it), expired
 * (open, but past its expiry: another desk may take it over), finished (the write is settled: nobody sends
 * it again), each with whether a desk took it over from the one that handed it over.
 */
export interface LeaseView {
  ref: string;
  request: string;
  state: 'open' | 'expired' | 'finished';
  /** The desk holding it now (the one that finished it, when finished). */
  owner: string;
  mine: boolean;
  /** How many times another desk took it over; the owner is the last to have. */
  taken_over: number;
}

/** How many leases the team card lists: the unfinished first, then the latest finished. */
const VIEWS = 50;

export class PgSendLeases implements SendLeases {
  constructor(
    private readonly q: <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<R>>,
    /** This desk, as its leases name it. */
    private readonly me: string,
    private readonly ms: number,
  ) {}

  async open(profile: string): Promise<SendLease[]> {
    const { rows } = await this.q<{ ref: string; request: string; owner: string; expired: boolean }>(
      `SELECT ref, request, owner, expires_at < now() AS expired FROM send_leases
        WHERE profile = $1 AND NOT finished AND (owner = $2 OR expires_at < now()) ORDER BY ref`,
      [profile, this.me],
    );
    return rows.map((r) => ({ ...r, mine: r.owner === this.me }));
  }

  /** A profile's leases as the team card shows them, unfinished first. */
  async views(profile: string): Promise<LeaseView[]> {
    const { rows } = await this.q<{ ref: string; request: string; owner: string; finished: boolean; expired: boolean; taken_over: number }>(
      `SELECT ref, request, owner, finished, expires_at < now() AS expired, taken_over FROM send_leases
        WHERE profile = $1 ORDER BY finished, expires_at DESC, ref LIMIT ${VIEWS}`,
      [profile],
    );
    return rows.map((r) => ({
      ref: r.ref,
      request: r.request,
      state: r.finished ? 'finished' : r.expired ? 'expired' : 'open',
      owner: r.owner,
      mine: r.owner === this.me,
      taken_over: r.taken_over,
    }));
  }

  async renew(ref: string): Promise<LeaseRenewal> {
    const { rows } = await this.q<{ owner: string; left_ms: number }>(
      `UPDATE send_leases SET expires_at = CASE WHEN owner = $2 THEN now() + $3 * interval '1 millisecond' ELSE expires_at END
        WHERE ref = $1 RETURNING owner, (extract(epoch FROM expires_at - now()) * 1000)::float8 AS left_ms`,
      [ref, this.me, this.ms],
    );
    if (rows.length === 0) return { holder: 'none', leftMs: 0 };
    return rows[0]!.owner === this.me ? { holder: 'mine', leftMs: Number(rows[0]!.left_ms) } : { holder: 'other', leftMs: 0 };
  }

  /** Refused by the store itself unless the lease has run out by the database's clock (the fence's other half). */
  async claim(ref: string, owner: string): Promise<boolean> {
    const r = await this.q(
      `UPDATE send_leases SET owner = $2, expires_at = now() + $4 * interval '1 millisecond', taken_over = taken_over + 1
        WHERE ref = $1 AND owner = $3 AND expires_at < now() AND NOT finished`,
      [ref, this.me, owner, this.ms],
    );
    return r.rowCount === 1;
  }

  async finish(ref: string): Promise<void> {
    await this.q('UPDATE send_leases SET finished = true WHERE ref = $1 AND owner = $2', [ref, this.me]);
  }
}

/** The lease rows a hand-over inserts, in the transaction of its "dispatched" record. */
export async function takeLeases(
  client: pg.ClientBase,
  refs: readonly string[],
  request: string,
  profile: string,
  owner: string,
  ms: number,
): Promise<void> {
  await client.query(
    `INSERT INTO send_leases (ref, request, profile, owner, expires_at)
     SELECT r, $2, $3, $4, now() + $5 * interval '1 millisecond' FROM unnest($1::text[]) AS r`,
    [refs, request, profile, owner, ms],
  );
}
