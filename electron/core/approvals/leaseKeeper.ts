import type { BatchPayload } from '../../../shared/api/batch.ts';
import type { ActiveSession } from '../session.ts';
import type { RequestPayload } from '../governance/state.ts';
import type { Approvals } from './service.ts';
import type { SendLease } from './store.ts';

// Exactly one desk of a team sends each approved write: the one holding its send lease (team/leases.ts).
// The drafting desk takes the leases with the hand-over and renews them here while its executor drives
// the writes; once a write is settled its lease is finished. A lease left to expire (its desk killed,
// cut off, or stopped between the hand-over and its journal) is claimed here by another desk, or by the
// same desk started again, which hands the write to its own executor without an approval time: the
// executor then asks the exchange by the write's id before its first send (writes/lookups.ts), and a
// write found there is recorded as landed, never sent again. The write's note journals the take-over.

/** Intent states in which a write may still be sent: its lease is kept. */
const SENDING = new Set(['pending_approval', 'approved', 'in_flight', 'unconfirmed']);

export interface LeaseTick {
  approvals: Approvals;
  session: ActiveSession;
  /** Writes this desk has handed over and is about to give its executor (paced): kept, not re-sent. */
  handing: ReadonlySet<string>;
  /** Why nothing governed may start now (a freeze), or null. */
  hold: () => Promise<string | null>;
  /** The reason each write's take-over was last held for, so that a hold is logged once, not every round. */
  heldFor: Map<string, string>;
  log: (line: string) => void;
}

/** One round over the active profile's leases: renew, finish, and take over what has expired. */
export async function keepLeases(t: LeaseTick): Promise<void> {
  const leases = t.approvals.leases;
  const writes = t.session.writes;
  if (!leases || !writes) return;
  const open = await leases.open(t.session.id);
  // A lease finished or taken by another desk while its take-over was held is not held here any more.
  for (const ref of t.heldFor.keys()) if (!open.some((l) => l.ref === ref)) t.heldFor.delete(ref);
  for (const l of open) {
    const v = t.session.journal?.intent(l.ref);
    if (l.mine) {
      if (v && !SENDING.has(v.state)) {
        await leases.finish(l.ref);
        continue;
      }
      if ((await leases.renew(l.ref)).holder !== 'mine' || v || t.handing.has(l.ref)) continue;
      await resend(t, l, 'this desk handed it over and stopped before journaling it; sent once the exchange was asked by its id');
    } else if (l.expired && (await leases.claim(l.ref, l.owner))) {
      await resend(
        t,
        l,
        `taken over from ${l.owner}, whose send lease expired; sent only once the exchange answered that it has no write with this id`,
      );
    }
  }
}

async function resend(t: LeaseTick, l: SendLease, why: string): Promise<void> {
  const held = await t.hold();
  if (held !== null) {
    if (t.heldFor.get(l.ref) !== held) t.log(`[approvals] send lease ${l.ref}: held, ${held}`);
    t.heldFor.set(l.ref, held);
    return;
  }
  t.heldFor.delete(l.ref);
  const p = (await t.approvals.load()).proposals.get(l.request);
  if (!p) {
    t.log(`[approvals] send lease ${l.ref}: no request ${l.request} in the team's records`);
    return;
  }
  const rows: { ref: string; kind: string; body: RequestPayload['body']; note?: string; signer?: string }[] =
    p.what === 'batch' ? (JSON.parse(p.payload) as BatchPayload).rows : [{ ref: p.ref, ...(JSON.parse(p.payload) as RequestPayload) }];
  const row = rows.find((r) => r.ref === l.ref);
  if (!row) {
    t.log(`[approvals] send lease ${l.ref}: request ${l.request} has no such write`);
    return;
  }
  const sigs = t.approvals.signaturesOf(p);
  t.log(`[approvals] ${l.ref}: ${why}`);
  // No approval time: the executor counts it as approved before this run and looks the id up before sending.
  void t.session
    .writes!.dispatchApproved(row.ref, row.kind as never, row.body, sigs, [...new Set(sigs.map((x) => x.name))].join(', '), {
      note: row.note ? `${row.note} (${why})` : why,
      ...(row.signer ? { signer: row.signer } : {}),
      ...(p.decided ? { decided: p.decided } : {}),
    })
    .catch((e: unknown) => t.log(`[approvals] ${row.ref}: ${(e as Error).message}`));
}
