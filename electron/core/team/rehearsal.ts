import { join } from 'node:path';
import { z } from 'zod';
import type { ChannelResponse } from '../../../shared/ipc.ts';
import { encodeInvitation, parseInvitation, type Invitation } from '../../../shared/rehearsal.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';
import { ApiClient } from '../client/client.ts';
import { makeSandboxKey } from '../client/sandboxAdmin.ts';
import { ExchangeError, InputError, NetworkError } from '../errors.ts';
import type { Profile } from '../profiles/profile.ts';
import { keepRehearsal, readSandboxCredentials } from '../profiles/sandbox.ts';
import type { Session } from '../session.ts';
import { testTeamStore } from './connectionTest.ts';
import { DeskIdentity } from './deskIdentity.ts';
import { whereOf } from './kept.ts';
import { joinTeam } from './membership.ts';
import type { TeamWiring } from './wiring.ts';

// Rehearsing a team across two desks (docs/team.md §Rehearsing a team). Each `npm start` runs its own
// Sandbox; a second desk rehearses on the first one's: the first desk's Sandbox makes a key for it through
// its admin API, and the second desk's built-in Sandbox profile (play money, the Sandbox's governance
// domain and rules) trades there with that key and joins the first desk's team store. Only the built-in
// profile is ever pointed at another Sandbox, and only at a loopback one, so no stored (live) profile can
// come under the Sandbox's rules this way, and no live key goes into an invitation.

export interface RehearsalOptions {
  dataDir: string;
  /** The desk's own Sandbox's credentials.json (its admin URL and token); absent where none runs. */
  credentialsPath?: string;
  /** The built-in profile, which a join points at the other desk's Sandbox. */
  builtIn?: Profile;
  session: Session;
  approvals: DeskApprovals;
  team: TeamWiring;
}

const SANDBOX_ONLY =
  'Invitations are made from the built-in Sandbox profile only: its keys are play money. A live key never goes into one; choose the Sandbox profile first.';

/** The team store's URL as an invitation carries it: no password (each desk types its own copy). */
function withoutPassword(url: string): string {
  const u = new URL(url);
  u.password = '';
  u.searchParams.delete('password');
  return u.toString();
}

export class Rehearsal {
  constructor(private readonly opts: RehearsalOptions) {}

  private builtInActive(): Profile {
    const b = this.opts.builtIn;
    const active = this.opts.session.activeSummary();
    if (!b || !active?.built_in || b.environment !== 'sandbox' || b.auditor) throw new InputError([], SANDBOX_ONLY);
    return b;
  }

  /** "Invite a desk": a key pair the Sandbox makes for the second desk, with the Sandbox's and the team's addresses. */
  async invite(): Promise<ChannelResponse<'teamInvite'>> {
    const builtIn = this.builtInActive();
    if (!this.opts.credentialsPath)
      throw new InputError([], 'This desk runs no Sandbox of its own, so it cannot make a key for another desk.');
    const creds = readSandboxCredentials(this.opts.credentialsPath);
    if (creds.base_url !== builtIn.baseUrl)
      throw new InputError(
        [],
        `This desk rehearses on another desk's Sandbox (${builtIn.baseUrl}): invite from that desk, whose Sandbox can make a key.`,
      );
    const t = this.opts.team.of('sandbox');
    let team: Invitation['team'] = null;
    if (t) {
      // The founding record is pinned at the first read of the team: read it now if none was yet.
      await this.opts.approvals.forActive().approvals.load();
      const pinned = new DeskIdentity(join(this.opts.approvals.storeOptions('sandbox').dir, 'team')).pin()?.founding ?? t.founding ?? null;
      if (!pinned)
        throw new InputError([], "This desk has not read its team's founding record yet: open the Approvals page once, then invite again.");
      team = { url: withoutPassword(t.url), founding: pinned };
    }
    let pair: { uid: string; key: string; secret: string };
    try {
      pair = await makeSandboxKey(creds, creds.main.uid, 'invited desk');
    } catch (e) {
      throw new InputError([], (e as Error).message);
    }
    const invitation = encodeInvitation({ sandbox: creds.base_url, uid: pair.uid, key: pair.key, secret: pair.secret, team });
    return { invitation, sandbox: creds.base_url, team: team ? whereOf(team.url) : null };
  }

  /**
   * "Join a rehearsal": checks the code, the key at its Sandbox and the team store (reached, the founding
   * record the code names) before anything is kept; then the built-in profile moves to that Sandbox and
   * the desk joins the team.
   */
  async join(req: { invitation: string; password?: string | undefined }): Promise<ChannelResponse<'teamJoinRehearsal'>> {
    let inv: Invitation;
    try {
      inv = parseInvitation(req.invitation);
    } catch (e) {
      throw new InputError(['invitation'], (e as Error).message);
    }
    const builtIn = this.opts.builtIn;
    if (!builtIn || builtIn.environment !== 'sandbox')
      throw new InputError([], 'This desk has no built-in Sandbox profile to rehearse with (start it with `npm start`).');
    // The team joined is the active profile's domain's: the Sandbox's, never the stored profiles'.
    if (this.opts.session.activeSummary()?.built_in !== true)
      throw new InputError([], "Choose the Sandbox profile first: a rehearsal moves the Sandbox profile and the Sandbox's approvals only.");
    if (builtIn.baseUrl !== inv.sandbox) {
      // The built-in profile's own writes go on in its journal: none may be left for another exchange to settle.
      const open = this.opts.session.active().journal?.unfinished() ?? [];
      if (open.length > 0)
        throw new InputError(
          [],
          `The Sandbox profile has ${open.length} write(s) not finished on this desk's own Sandbox (${open[0]!.id} first): let them finish, or rehearse from a new data folder (TREASURY_DESK_HOME).`,
        );
    }
    await this.checkKey(inv);
    const team = inv.team;
    if (team) {
      const kept = this.opts.team.of('sandbox');
      if (!kept) {
        const found = await testTeamStore(team.url, req.password);
        if (!found.reached) throw new InputError(['password'], `The team store could not be used: ${found.reason}. Nothing was changed.`);
        if (!('founding' in found.team))
          throw new InputError(
            [],
            'The team store in the invitation is empty: the first desk founds the team first, then invites. Nothing was changed.',
          );
        if (found.team.founding !== team.founding)
          throw new InputError(
            [],
            `The team store's founding record is ${found.team.founding}, not ${team.founding} as the invitation says: it is another team. Nothing was changed.`,
          );
      } else if (withoutPassword(kept.url) !== team.url) {
        throw new InputError([], "This desk's Sandbox approvals are in another team already: leave it first (Settings → Team store).");
      }
    }
    this.moveTo(inv);
    if (!team) return { sandbox: inv.sandbox, team: null };
    if (this.opts.team.of('sandbox')) return { sandbox: inv.sandbox, team: 'already' };
    const joined = await joinTeam(this.opts.approvals, this.opts.team, { url: team.url, password: req.password, founding: team.founding });
    return { sandbox: inv.sandbox, team: 'joined' in joined ? 'joined' : joined };
  }

  /** One read with the invitation's key: a key its Sandbox does not know (or a Sandbox not there) changes nothing. */
  private async checkKey(inv: Invitation): Promise<void> {
    const client = new ApiClient({ baseUrl: inv.sandbox, credentials: { key: inv.key, secret: inv.secret }, limitsOff: true });
    try {
      await client.request({ method: 'GET', path: '/spot/time' }, z.unknown());
      await client.request({ method: 'GET', path: '/wallet/total_balance' }, z.unknown());
    } catch (e) {
      const why =
        e instanceof ExchangeError
          ? `it refused the key (${e.label})`
          : e instanceof NetworkError
            ? 'it did not answer'
            : (e as Error).message;
      throw new InputError(
        [],
        `The Sandbox at ${inv.sandbox} cannot be used with this invitation: ${why}. Is the first desk running (its Sandbox restarted on another port asks for a new invitation)? Nothing was changed.`,
      );
    }
  }

  /** The built-in profile trades on the invitation's Sandbox from now on (and after a restart: rehearsal.json). */
  private moveTo(inv: Invitation): void {
    keepRehearsal(this.opts.dataDir, { base_url: inv.sandbox, uid: inv.uid, key: inv.key, secret: inv.secret });
    const b = this.opts.builtIn!;
    b.baseUrl = inv.sandbox;
    b.credentials = { key: inv.key, secret: inv.secret };
    b.subKeys = [];
    // The session opens the profile again, with a client on the new address and key.
    this.opts.session.select(this.opts.session.activeId()!);
  }
}
