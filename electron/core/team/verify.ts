import { RecordBody, isGovernance } from '../journal/records.ts';
import { verifySignature } from '../operators/keys.ts';
import { activeAt, type GovernanceRules } from '../governance/state.ts';
import { applyGovernance } from '../governance/fold.ts';
import { deskFingerprint, type DeskIdentity, type Pin } from './deskIdentity.ts';
import { certText, Entry, entrySignatureValid, genesisLink, linkOf } from './envelope.ts';
import { TeamTamperError } from './errors.ts';
import { noneVerified, type Verified } from './verified.ts';

// Every read verifies every row (docs/team.md): the chain of links, each desk's signature and certificate,
// then the operators' signatures and quorums as governance/fold.ts folds them. The database is a notice
// board, not a trusted party, so the first row that does not verify stops the read, naming it.

/**
 * A recovery is let in by the vault's credential of the desk that writes it, which no other desk can
 * check: on a team it would let whoever holds one desk's key reset every desk's policy after the
 * cooling-off. A team has none.
 */
export const NO_RECOVERY = 'a recovery is not a team record: no other desk can check the credential that let it in';

export interface StoreRow {
  seq: number;
  entry: string;
  sig: string;
}

export interface VerifyContext {
  identity: DeskIdentity;
  /** What this desk verified before: rows still the same to the byte are not checked again. */
  known: Verified;
  /** The founding record's link as the founding desk showed it, when the desk has no pin yet. */
  founding?: string;
  rules: GovernanceRules;
}

/**
 * Checks every row from the founding record on; throws TeamTamperError at the first that does not verify.
 * `fresh`: checks every row again (none taken from the last read) and keeps no pin; `seen.out` holds what
 * verified so far when it throws.
 */
export function verifyRows(
  rows: readonly StoreRow[],
  ctx: VerifyContext,
  how: { fresh?: boolean; seen?: { out: Verified } } = {},
): Verified {
  const { identity } = ctx;
  const pin = identity.pin();
  let out = noneVerified();
  if (how.seen) how.seen.out = out;
  if (rows.length === 0) {
    if (pin?.founding) throw new TeamTamperError(1, `the store is empty, but this desk joined team ${pin.team}`);
    return out;
  }
  // A pin without a founding record is a desk that meant to found the team: the store's founder counts.
  let team = pin?.founding ? pin.team : null;
  let prev = team ? genesisLink(team) : null;
  let lastAt = Number.NEGATIVE_INFINITY;
  // What this desk verified before, unchanged to the byte, is taken as verified; only the rows after it are checked.
  const known = ctx.known;
  const n = known.rows.length;
  if (
    !how.fresh &&
    team &&
    n > 0 &&
    rows.length >= n &&
    known.rows.every((k, i) => rows[i]!.seq === i + 1 && rows[i]!.entry === k.entry && rows[i]!.sig === k.sig)
  ) {
    // Nothing new: nothing is folded, so the state is shared; anything new is folded into a copy.
    out =
      rows.length === n
        ? known
        : {
            records: [...known.records],
            links: [...known.links],
            rows: [...known.rows],
            own: new Set(known.own),
            desks: [...known.desks],
            state: structuredClone(known.state),
          };
    prev = known.links[n - 1]!;
    lastAt = Date.parse(known.records[n - 1]!.at);
    if (how.seen) how.seen.out = out;
  }
  for (const [i, row] of rows.entries()) {
    if (i < out.rows.length) continue;
    const seq = i + 1;
    if (row.seq !== seq) throw new TeamTamperError(seq, `it is missing (the store goes on at ${row.seq})`);
    let entry: Entry;
    try {
      entry = Entry.parse(JSON.parse(row.entry));
    } catch {
      throw new TeamTamperError(seq, 'it is not a team record');
    }
    if (entry.seq !== seq) throw new TeamTamperError(seq, `it was written as record ${entry.seq}`);
    team ??= entry.team;
    prev ??= genesisLink(team);
    if (entry.team !== team) throw new TeamTamperError(seq, `it belongs to team ${entry.team}, not ${team}`);
    if (entry.prev !== prev) throw new TeamTamperError(seq, 'it does not follow the record before it (one was removed, moved or edited)');
    if (!entrySignatureValid(entry.desk.key, row.entry, row.sig)) throw new TeamTamperError(seq, "its desk's signature does not verify");
    const at = Date.parse(entry.at);
    if (at < lastAt) throw new TeamTamperError(seq, 'it is dated before the record it follows');
    const parsed = RecordBody.safeParse(entry.body);
    if (!parsed.success || !isGovernance(parsed.data)) throw new TeamTamperError(seq, 'its body is not a governance record');
    const body = parsed.data;
    if (body.type === 'recovery') throw new TeamTamperError(seq, NO_RECOVERY);
    const link = linkOf(row.entry);
    if (seq === 1) {
      if (body.type !== 'operator_created') throw new TeamTamperError(seq, 'the founding record does not create the first operator');
      const pinned = pin?.founding ?? ctx.founding ?? null;
      if (pinned !== null && pinned !== link) throw new TeamTamperError(seq, 'it is not the founding record this desk joined');
    }
    const vouch =
      seq === 1 && body.type === 'operator_created'
        ? body.ref === entry.desk.by
          ? body.public_key
          : null
        : activeAt(out.state.operators.get(entry.desk.by), at)
          ? out.state.operators.get(entry.desk.by)!.public_key
          : null;
    if (vouch === null || !verifySignature(vouch, certText(team, entry.desk.key), entry.desk.cert))
      throw new TeamTamperError(seq, 'its desk was not vouched for by an operator in force');
    try {
      applyGovernance(out.state, body, at, ctx.rules);
    } catch (e) {
      throw new TeamTamperError(seq, `${body.type} does not check: ${(e as Error).message}`);
    }
    out.records.push({ ...body, seq, at: entry.at, prev: entry.prev, mac: link });
    out.links.push(link);
    out.rows.push({ entry: row.entry, sig: row.sig });
    out.desks.push(deskFingerprint(entry.desk.key));
    if (entry.desk.key === identity.deskKey().public) out.own.add(seq);
    prev = link;
    lastAt = at;
  }
  // Records cut from the end leave a chain that verifies: what this desk saw before must still be there.
  if (pin && pin.seen.seq > 0) {
    if (rows.length < pin.seen.seq) throw new TeamTamperError(pin.seen.seq, `it was removed (the store now ends at ${rows.length})`);
    if (out.links[pin.seen.seq - 1] !== pin.seen.link)
      throw new TeamTamperError(pin.seen.seq, 'it differs from the one this desk verified');
  }
  const next: Pin = { team: team!, founding: out.links[0]!, seen: { seq: out.records.length, link: out.links.at(-1)! } };
  if (!how.fresh && (!pin || pin.founding !== next.founding || next.seen.seq > pin.seen.seq)) identity.putPin(next);
  return out;
}
