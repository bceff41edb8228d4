import type { GovernanceBody, GovernanceRecord } from '../journal/records.ts';
import type { OperatorKey } from '../operators/keys.ts';
import type { GovernanceRules, GovernanceState } from '../governance/state.ts';
import type { TeamVerifyAnswer } from '../../../shared/ipc.ts';

/** What Verify of a shared store found, row by row from the founding record on (the answer's `team: true` side). */
export type StoreAudit = Omit<Extract<TeamVerifyAnswer, { team: true }>, 'team'>;

// Operators, requests, approvals, policy changes and freezes sit behind this interface. It assumes
// nothing about living in one process: every call is async, every append names the position it follows
// and fails with a conflict when another writer got there first (team/pgStore.ts keeps the records in
// PostgreSQL with a row per record and a unique sequence). The sealed operator keys and the policy copies
// stay on the desk whichever store holds the records (operatorShelf.ts).

export class StoreConflictError extends Error {
  constructor() {
    super('Another desk changed the approvals at the same moment; look again and repeat.');
    this.name = 'StoreConflictError';
  }
}

export interface GovernanceStore {
  /** Every record in order. */
  read(): Promise<GovernanceRecord[]>;
  /**
   * Every record read and folded under the desk's rules, for a store that folds them anyway while
   * verifying them (team/pgStore.ts): a copy, so that a read is not folded twice.
   */
  readState?(): Promise<GovernanceState>;
  /** Appends after the `afterSeq`-th record, or throws StoreConflictError when the store has moved on. */
  append(body: GovernanceBody, afterSeq: number): Promise<GovernanceRecord>;
  /** An operator's key, its private half sealed by their passphrase. */
  operatorKey(id: string): Promise<OperatorKey | null>;
  putOperatorKey(key: OperatorKey): Promise<void>;
  /** The policy file of a profile as it sits on disk (a copy for people to read; the records are what counts). */
  readPolicyFile(profile: string): Promise<string | null>;
  writePolicyFile(profile: string, text: string): Promise<void>;
  close(): Promise<void>;
  /**
   * A store shared by several desks signs each record as this desk, under a certificate an operator
   * signs here once (team/pgStore.ts): it is asked each time an operator's passphrase has opened their
   * key at this desk, and does nothing once the desk holds a certificate. The local store has none.
   */
  enrol?(key: OperatorKey, passphrase: string): Promise<void>;
  /** Whether this desk wrote the `seq`-th record; a store only this desk writes has none (every record is its own). */
  writtenHere?(seq: number): boolean;
  /** Calls `listener` when another desk changed the records; returns the unsubscribe. The local store has none. */
  subscribe?(listener: () => void): () => void;
  /**
   * A store shared by several desks appends a "dispatched" record together with a send lease for each of
   * its writes (`refs`), in one transaction: from then on exactly one desk sends them. The local store has none.
   */
  handOver?(body: GovernanceBody, afterSeq: number, refs: readonly string[]): Promise<GovernanceRecord>;
  leases?: SendLeases;
  /**
   * A freeze signed while the shared store cannot be reached: kept at this desk and posted, before
   * anything else is read, once the store is reached again. The local store has none.
   */
  keepFreeze?(body: GovernanceBody): Promise<void>;
  /** On a shared store: the desk at which request `ref` was drafted and each operator (by id) signed it. */
  desksOf?(ref: string): { drafted: string | null; signed: Map<string, string> };
  /** On a shared store: this desk's name there (null before the store is read). */
  deskName?(): string | null;
  /** How many freezes this desk keeps to post (keepFreeze). */
  keptFreezes?(): number;
  /** On a shared store: every row read again and verified afresh, and where verification stopped. The local store has none. */
  audit?(): Promise<StoreAudit>;
}

/** One write's send lease on a shared store: which desk sends it, until when. */
export interface SendLease {
  /** The write's id (its client id at the exchange). */
  ref: string;
  /** The request or batch it belongs to. */
  request: string;
  /** The desk holding it, as the team knows it (a short fingerprint of its key). */
  owner: string;
  mine: boolean;
  /** Past its expiry by the database's clock: another desk may take it over. */
  expired: boolean;
}

export interface LeaseRenewal {
  holder: 'mine' | 'other' | 'none';
  leftMs: number;
}

export interface SendLeases {
  /** A profile's unfinished leases: this desk's own and every expired one. */
  open(profile: string): Promise<SendLease[]>;
  /**
   * Extends this desk's lease on `ref`: 'mine', 'other' when another desk holds it, 'none' when it has no
   * lease; `leftMs`, by the store's clock, how long the lease now runs (0 when it is not this desk's).
   */
  renew(ref: string): Promise<LeaseRenewal>;
  /** Takes over `ref`'s expired lease from `owner`; false when it is not expired or someone took it first. */
  claim(ref: string, owner: string): Promise<boolean>;
  /** The write is settled: nobody sends it again. */
  finish(ref: string): Promise<void>;
}

/** A trust domain of governance: the vault's (stored profiles) or the Sandbox's play money (domains.ts). */
export type Domain = 'vault' | 'sandbox';

/** What a domain's store is opened with, whichever store holds its records: this desk's folder, the rules, the clock. */
export interface StoreBase {
  dir: string;
  rules: GovernanceRules;
  now: () => number;
}

/** A team's shared store, opened for one domain. */
export interface TeamStore {
  store: GovernanceStore;
  /** Joined as an auditor: the domain signs and sends nothing, whichever profile is active. */
  auditor: boolean;
  /** How long its send leases run; this desk renews them every third of it. */
  leaseMs: number;
}

/**
 * How the approvals reach a team's shared store. It is built outside approvals/ (team/wiring.ts, which the
 * core hands in): team/ implements the interfaces of this file, and approvals/ never imports team/.
 */
export interface TeamStores {
  /** The send-lease length the desk's lease keeping assumes until a team store names its own (team/leases.ts). */
  readonly defaultLeaseMs: number;
  /** The lease length of a team store the desk was started with (not one joined from Settings): its leases are kept from the start. */
  readonly startedLeaseMs: number | null;
  /**
   * A domain's team store, opened now (at the domain's first use, and again after a reopen once a team was
   * joined, founded or left); null when the domain keeps its own journal.
   */
  open(domain: Domain, base: StoreBase): TeamStore | null;
}
