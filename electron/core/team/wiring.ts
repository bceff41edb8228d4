import { join } from 'node:path';
import type { Domain, StoreBase, TeamStore, TeamStores } from '../approvals/store.ts';
import { fileJournalKey } from '../journal/mac.ts';
import type { VaultPort } from '../vaultPort.ts';
import type { Sealer } from './deskIdentity.ts';
import { fileKeySealer, TeamKeeping } from './kept.ts';
import { LazyTeamStore } from './lazyStore.ts';
import { DEFAULT_LEASE_MS } from './leases.ts';

// Which team store each governance domain uses and how it is opened, built by the core and handed to the
// approvals (approvals/store.ts TeamStores), so that the approvals never import team/: the store the
// core was started with (rehearsals, tests), else the one joined or founded from Settings (kept.ts).

/** A team's governance on PostgreSQL (pgStore.ts) in place of this desk's own journal, for one domain. */
export interface TeamConfig {
  url: string;
  domain: Domain;
  leaseMs?: number;
  auditor?: boolean;
  password?: string;
  founding?: string;
  /** How often every row is re-checked (team/recheck.ts); tests use a short one. */
  recheckMs?: number;
}

export interface TeamWiringOptions {
  dataDir: string;
  vault: VaultPort | null;
  /** The core's option: a stored profile's ('vault') or, for rehearsals and tests, the Sandbox's ('sandbox') team store. */
  team?: TeamConfig;
}

export class TeamWiring implements TeamStores {
  /** The team stores joined or founded from Settings, sealed, per domain (kept.ts). */
  readonly kept: TeamKeeping;
  readonly defaultLeaseMs = DEFAULT_LEASE_MS;
  readonly startedLeaseMs: number | null;
  /** The store each domain last opened: the team card reads its state (tampering, clock, leases) from it. */
  private readonly opened = new Map<Domain, LazyTeamStore>();

  constructor(private readonly opts: TeamWiringOptions) {
    this.kept = new TeamKeeping(join(opts.dataDir, 'team.json'));
    this.startedLeaseMs = opts.team ? (opts.team.leaseMs ?? DEFAULT_LEASE_MS) : null;
  }

  /** Seals a domain's team connection: the vault's box for stored profiles, the per-desk file key for the Sandbox's play money. */
  sealer(domain: Domain): Sealer {
    if (domain === 'sandbox') return fileKeySealer(fileJournalKey(join(this.opts.dataDir, 'journals', 'desk-journal.key')), 'sandbox');
    return {
      seal: (plain) => this.opts.vault!.box().seal(plain, 'team-connection'),
      open: (sealed) => this.opts.vault!.box().open(sealed, 'team-connection'),
    };
  }

  /** A domain's team store: the core's option (rehearsals, tests), else the one joined or founded from Settings, else null. */
  of(domain: Domain): (TeamConfig & { kept: boolean }) | null {
    if (this.opts.team?.domain === domain) return { ...this.opts.team, kept: false };
    const kept = this.kept.open(domain, this.sealer(domain));
    return kept ? { ...kept, domain, kept: true } : null;
  }

  /** What a domain's team store is opened with: the approvals' folder, rules and clock, and (for stored profiles) the vault's seal of the desk key. */
  storeOptions(domain: Domain, base: StoreBase): StoreBase & { sealer?: Sealer } {
    return {
      ...base,
      // A stored profiles' team: the desk key is sealed by the vault, as their keys are.
      ...(domain === 'vault' && this.opts.vault
        ? {
            sealer: {
              seal: (plain: string) => this.opts.vault!.box().seal(plain, 'team-desk-key'),
              open: (sealed: string) => this.opts.vault!.box().open(sealed, 'team-desk-key'),
            },
          }
        : {}),
    };
  }

  /** The team store a domain's approvals use now, if one was opened. */
  storeOf(domain: Domain): LazyTeamStore | null {
    return this.opened.get(domain) ?? null;
  }

  open(domain: Domain, base: StoreBase): TeamStore | null {
    const team = this.of(domain);
    if (!team) return null;
    const store = new LazyTeamStore({
      ...this.storeOptions(domain, base),
      url: team.url,
      ...(team.password !== undefined ? { password: team.password } : {}),
      ...(team.founding ? { founding: team.founding } : {}),
      ...(team.leaseMs ? { leaseMs: team.leaseMs } : {}),
      ...(team.recheckMs ? { recheckMs: team.recheckMs } : {}),
    });
    this.opened.set(domain, store);
    return { store, auditor: team.auditor === true, leaseMs: team.leaseMs ?? DEFAULT_LEASE_MS };
  }
}
