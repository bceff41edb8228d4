import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { ChannelResponse } from '../../../shared/ipc.ts';
import { InputError } from '../errors.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';
import type { Domain } from '../approvals/store.ts';
import { activeAt } from '../governance/state.ts';
import { testTeamStore } from './connectionTest.ts';
import { whereOf, type TeamConnection } from './kept.ts';
import { DeskIdentity } from './deskIdentity.ts';
import { teamUrlRefusal } from './url.ts';
import { skewRefusal } from './storeClock.ts';
import type { TeamWiring } from './wiring.ts';

// Founding and joining a team from Settings (docs/team.md §Founding and joining). Either changes who governs the domain's money,
// so either needs an operator in force at this desk to vouch with their passphrase in the confirmation
// window: founding, the desk's first operator (their passphrase vouches for this desk's key in the team);
// joining, any operator of the desk's own governance. A Sandbox desk with no operator yet has nothing to
// hand over and joins at once, as its first operator needs no credential either. The connection (URL and
// password) is kept sealed (kept.ts); the local journal stays as it was. `desk` is the approvals, `teams`
// the wiring of their team stores (wiring.ts).

/** Connects once; the store as found, or an InputError naming why not (nothing changed). */
async function reach(conn: TeamConnection): Promise<{ records: number; founding: string | null; where: string }> {
  const refused = teamUrlRefusal(conn.url);
  if (refused) throw new InputError(['url'], `${refused}.`);
  const t = await testTeamStore(conn.url, conn.password);
  if (!t.reached) throw new InputError([/password/i.test(t.reason) ? 'password' : 'url'], t.reason);
  const w = whereOf(conn.url);
  return { records: t.team.records, founding: 'founding' in t.team ? t.team.founding : null, where: `${w.host}/${w.database}` };
}

/** A team's pin, certificate and kept freezes from an earlier team are set aside, not mixed with the new one's. */
function setAsideEarlierTeam(dir: string): void {
  const team = join(dir, 'team');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (const f of ['pin.json', 'desk-cert.json', 'kept-freezes.json']) {
    const p = join(team, f);
    if (existsSync(p)) renameSync(p, join(team, `${f.replace(/\.json$/, '')}.left-${stamp}.json`));
  }
}

function notInTeamYet(teams: TeamWiring, domain: Domain): void {
  const t = teams.of(domain);
  if (t) {
    const w = whereOf(t.url);
    throw new InputError([], `this desk's approvals are on the team store at ${w.host}/${w.database} already.`);
  }
}

const connOf = (req: { url: string; password?: string | undefined }): TeamConnection => ({
  url: req.url.trim(),
  ...(req.password ? { password: req.password } : {}),
});

export async function foundTeam(
  desk: DeskApprovals,
  teams: TeamWiring,
  req: { url: string; password?: string | undefined },
): Promise<{ ticket: string; title: string }> {
  const domain = desk.activeDomain();
  notInTeamYet(teams, domain);
  const conn = connOf(req);
  const found = await reach(conn);
  if (found.records > 0)
    throw new InputError(
      ['url'],
      `the team store at ${found.where} holds a team already (${found.records} records, founding record ${found.founding ?? 'unknown'}): join it instead; only an empty store is founded.`,
    );
  const records = await desk.recordsOf(domain);
  if (records[0]?.type !== 'operator_created')
    throw new InputError([], "this desk has no operator yet: a team is founded by the desk's first operator, with their passphrase.");
  const title = `Found a team on ${found.where} with this desk's ${records.length} governance records (${records[0].name} vouches for this desk)`;
  return desk.ticketFor((a) =>
    a.vouchTicket(JSON.stringify({ team: 'found', store: found.where, records: records.length }), title, async (key, passphrase) => {
      const { PgGovernanceStore } = await import('./pgStore.ts');
      const opts = teams.storeOptions(domain, desk.storeOptions(domain));
      setAsideEarlierTeam(opts.dir);
      const store = new PgGovernanceStore({ ...opts, url: conn.url, ...(conn.password ? { password: conn.password } : {}) });
      let founding: string | null;
      try {
        await store.found(await desk.recordsOf(domain), key, passphrase);
        founding = store.founding();
      } finally {
        await store.close();
      }
      teams.kept.put(domain, conn, 'founded', founding!, teams.sealer(domain));
      await desk.reopen(domain);
    }),
  );
}

export async function joinTeam(
  desk: DeskApprovals,
  teams: TeamWiring,
  req: { url: string; password?: string | undefined; founding: string },
): Promise<ChannelResponse<'teamJoin'>> {
  const domain = desk.activeDomain();
  notInTeamYet(teams, domain);
  const conn = connOf(req);
  const found = await reach(conn);
  if (found.founding === null) throw new InputError(['url'], `the team store at ${found.where} is empty: found the team there instead.`);
  if (found.founding !== req.founding)
    throw new InputError(
      ['founding'],
      `the founding record of the team store at ${found.where} is ${found.founding}, not ${req.founding} as compared: it is another team, or its record was changed. Nothing was joined.`,
    );
  // An auditor profile joins to read and verify: the membership is kept as an auditor's (sealed), so the
  // domain signs and sends nothing whichever profile is active later, and no operator's consent is needed,
  // since nothing of the desk's money is handed to the team.
  const auditor = desk.auditorActive();
  const join_ = async (): Promise<void> => {
    const { PgGovernanceStore } = await import('./pgStore.ts');
    const opts = teams.storeOptions(domain, desk.storeOptions(domain));
    setAsideEarlierTeam(opts.dir);
    // Every record is verified from the pinned founding record on before the desk keeps the team: a store
    // that does not verify is refused now, naming the record, and nothing is kept.
    const store = new PgGovernanceStore({
      ...opts,
      url: conn.url,
      ...(conn.password ? { password: conn.password } : {}),
      founding: req.founding,
    });
    try {
      await store.readState();
    } catch (e) {
      throw new InputError([], (e as Error).message);
    } finally {
      await store.close();
    }
    teams.kept.put(domain, auditor ? { ...conn, auditor: true } : conn, auditor ? 'audited' : 'joined', req.founding, teams.sealer(domain));
    await desk.reopen(domain);
  };
  if (auditor) {
    await join_();
    return { joined: true };
  }
  const { approvals } = desk.forActive();
  const s = await approvals.load();
  const now = desk.storeOptions(domain).now();
  const inForce = [...s.operators.values()].filter((o) => activeAt(o, now));
  if (inForce.length === 0) {
    if (domain === 'vault')
      throw new InputError(
        [],
        "this desk has no operator yet: create its first operator in the confirmation window (with the vault's passphrase); they then confirm joining.",
      );
    await join_();
    return { joined: true };
  }
  const title = `Join the team on ${found.where} (founding record ${req.founding}): this desk's approvals move to the team's queue`;
  return desk.ticketFor((a) =>
    a.vouchTicket(JSON.stringify({ team: 'join', store: found.where, founding: req.founding }), title, () => join_()),
  );
}

/**
 * Leaves the team joined or founded from Settings: an operator of the team in force at this desk signs
 * (whoever may approve the team's requests here may say this desk no longer takes part); the domain's
 * approvals then go back to the desk's own journal, as they were when it joined.
 */
export async function leaveTeam(desk: DeskApprovals, teams: TeamWiring): Promise<ChannelResponse<'teamLeave'>> {
  const domain = desk.activeDomain();
  const t = teams.of(domain);
  if (!t) throw new InputError([], "this desk's approvals are in its own journal: there is no team to leave.");
  if (!t.kept) throw new InputError([], 'this desk was started with its team store: it leaves by being started without it.');
  if (t.auditor) {
    teams.kept.drop(domain);
    await desk.reopen(domain);
    return { left: true };
  }
  const w = whereOf(t.url);
  const title = `Leave the team on ${w.host}/${w.database}: this desk's approvals go back to its own journal, and the team's queue is no longer seen here`;
  return desk.ticketFor((a) =>
    a.vouchTicket(JSON.stringify({ team: 'leave', store: `${w.host}/${w.database}` }), title, async () => {
      teams.kept.drop(domain);
      await desk.reopen(domain);
    }),
  );
}

/** Which team store the active profile's governance uses, and whether it reads and verifies now. */
export async function teamStatus(desk: DeskApprovals, teams: TeamWiring): Promise<ChannelResponse<'teamStatus'>> {
  let domain: Domain;
  try {
    domain = desk.activeDomain();
  } catch {
    return { domain: null, team: null };
  }
  const t = teams.of(domain);
  if (!t) return { domain, team: null };
  const shown = teams.kept.shown(domain);
  const where = whereOf(t.url);
  const pinned = new DeskIdentity(join(desk.storeOptions(domain).dir, 'team')).pin()?.founding ?? t.founding ?? null;
  let state: 'online' | 'offline' | 'tampered' = 'online';
  let reason: string | null = null;
  const { approvals, session } = desk.forActive();
  try {
    await approvals.load();
  } catch (e) {
    state = (e as Error).name === 'TeamTamperError' ? 'tampered' : 'offline';
    reason = (e as Error).message;
  }
  const store = teams.storeOf(domain);
  const tampered = state === 'tampered' ? store?.tampered() : null;
  const clock = store?.clockReading();
  // Offline, the leases cannot be read either; the card says offline already.
  const leases = state === 'offline' || !store ? null : await store.leaseViews(session.id).catch(() => null);
  return {
    domain,
    team: {
      host: where.host,
      database: where.database,
      how: t.kept && shown ? shown.how : 'started',
      founding: pinned,
      state,
      reason,
      ...(tampered ? { tampered } : {}),
      ...(clock ? { clock: { offset_ms: clock.offsetMs, refusal: skewRefusal(clock) } } : {}),
      ...(leases ? { leases } : {}),
    },
  };
}
