import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import type { OperatorKey } from '../operators/keys.ts';
import { GovernanceError, type GovernanceState } from '../governance/state.ts';
import type { GovernanceStore, SendLeases, StoreAudit } from '../approvals/store.ts';
import type { PgGovernanceStore, PgStoreOptions, Tampered } from './pgStore.ts';
import type { ClockReading } from './storeClock.ts';
import type { LeaseView } from './leases.ts';
import { teamUrlRefusal } from './url.ts';

// The team store's code (node-postgres, Umzug and their dependencies) costs 100–200 ms to load, paid by
// every desk at start though most never join a team (docs/performance.md §Opening the desk: the host reaches a usable page in 1 s).
// It is loaded on the first call to a team domain's store instead; the address is still refused at once.

export class LazyTeamStore implements GovernanceStore {
  private store: PgGovernanceStore | null = null;
  private readonly loading: Promise<PgGovernanceStore>;
  private readonly listeners = new Set<() => void>();

  constructor(opts: PgStoreOptions) {
    const refused = teamUrlRefusal(opts.url);
    if (refused) throw new GovernanceError(`${refused}.`);
    this.loading = import('./pgStore.ts').then((m) => {
      const store = new m.PgGovernanceStore(opts);
      store.subscribe(() => {
        for (const l of this.listeners) l();
      });
      this.store = store;
      return store;
    });
    // A failure is met by the first call that awaits it, not left unhandled here.
    this.loading.catch(() => {});
  }

  async read(): Promise<GovernanceRecord[]> {
    return (await this.loading).read();
  }
  async readState(): Promise<GovernanceState> {
    return (await this.loading).readState();
  }
  async append(body: GovernanceBody, afterSeq: number): Promise<GovernanceRecord> {
    return (await this.loading).append(body, afterSeq);
  }
  async handOver(body: GovernanceBody, afterSeq: number, refs: readonly string[]): Promise<GovernanceRecord> {
    return (await this.loading).handOver(body, afterSeq, refs);
  }
  readonly leases: SendLeases = {
    open: async (profile) => (await this.loading).leases.open(profile),
    renew: async (ref) => (await this.loading).leases.renew(ref),
    claim: async (ref, owner) => (await this.loading).leases.claim(ref, owner),
    finish: async (ref) => (await this.loading).leases.finish(ref),
  };
  async audit(): Promise<StoreAudit> {
    return (await this.loading).audit();
  }
  async keepFreeze(body: GovernanceBody): Promise<void> {
    return (await this.loading).keepFreeze(body);
  }
  /** Only a loaded store can have kept any: one is loaded before a freeze is signed at it. */
  keptFreezes(): number {
    return this.store?.keptFreezes() ?? 0;
  }
  async operatorKey(id: string): Promise<OperatorKey | null> {
    return (await this.loading).operatorKey(id);
  }
  async putOperatorKey(key: OperatorKey): Promise<void> {
    return (await this.loading).putOperatorKey(key);
  }
  async readPolicyFile(profile: string): Promise<string | null> {
    return (await this.loading).readPolicyFile(profile);
  }
  async writePolicyFile(profile: string, text: string): Promise<void> {
    return (await this.loading).writePolicyFile(profile, text);
  }
  async enrol(key: OperatorKey, passphrase: string): Promise<void> {
    return (await this.loading).enrol(key, passphrase);
  }
  async close(): Promise<void> {
    // A store whose code never loaded holds nothing to close.
    const store = await this.loading.catch(() => null);
    await store?.close();
  }
  desksOf(ref: string): { drafted: string | null; signed: Map<string, string> } {
    return this.store?.desksOf(ref) ?? { drafted: null, signed: new Map() };
  }
  deskName(): string | null {
    return this.store?.deskName() ?? null;
  }
  /** Only records already read can be this desk's: before the store is loaded, none is. */
  writtenHere(seq: number): boolean {
    return this.store?.writtenHere(seq) ?? false;
  }
  /** What the team card shows (membership.ts teamStatus): nothing before the store's code is loaded. */
  tampered(): Tampered | null {
    return this.store?.tampered() ?? null;
  }
  clockReading(): ClockReading | null {
    return this.store?.clockReading() ?? null;
  }
  async leaseViews(profile: string): Promise<LeaseView[]> {
    return (await this.loading).leases.views(profile);
  }
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
