import { ApiClient, type LinkOutcome } from './client.ts';
import type { Scheduler } from './scheduler.ts';

// A sub-account's key signs that sub-account's own requests (its reads, moves between its own accounts,
// the sub-to-sub transfers it sends). Each key is its own UID on the exchange (§8.2 "UID" limits), so each
// draws on its own buckets, in the one scheduler every client of the desk shares.

export interface SubKey {
  uid: string;
  key: string;
  secret: string | Buffer;
}

/** The exchange refused a request with a label: READ_ONLY and FORBIDDEN tell what this key may do. */
export type OnRefusal = (uid: string, label: string, method: string, path: string) => void;

export interface SubKeyClientsOptions {
  baseUrl: string;
  svc?: string;
  keys: readonly SubKey[];
  /** The desk's scheduler; absent only with `limitsOff` (a Sandbox started without limits, in tests). */
  scheduler?: Scheduler;
  limitsOff?: boolean;
  onRefusal?: OnRefusal;
  onLink?: (outcome: LinkOutcome) => void;
  fetch?: typeof fetch;
}

/** The budget name of a UID in the scheduler (one per account, as the exchange counts). */
export const uidAccount = (uid: string): string => `uid:${uid}`;

export class NoSubKeyError extends Error {
  constructor(readonly uid: string) {
    super(`This profile holds no key for sub-account ${uid}. Add the sub-account's key to the profile in Settings.`);
    this.name = 'NoSubKeyError';
  }
}

export class SubKeyClients {
  private readonly clients = new Map<string, ApiClient>();
  private readonly keys = new Map<string, string>();

  constructor(private readonly opts: SubKeyClientsOptions) {
    if (!opts.scheduler && !opts.limitsOff) throw new Error("sub-account clients share the desk's scheduler: pass it");
    for (const k of opts.keys) {
      if (this.clients.has(k.uid)) throw new Error(`sub-account ${k.uid} has two keys in this profile`);
      this.put(k);
    }
  }

  /** A key the desk had the exchange make for `k.uid`: it signs that sub-account's requests from now on. */
  replace(k: SubKey): void {
    this.put(k);
  }

  /** The key of `uid` was removed at the exchange: nothing signs with it any more. */
  remove(uid: string, key: string): void {
    if (this.keys.get(uid) === key) {
      this.clients.delete(uid);
      this.keys.delete(uid);
    }
  }

  private put(k: SubKey): void {
    this.keys.set(k.uid, k.key);
    const opts = this.opts;
    this.clients.set(
      k.uid,
      new ApiClient({
        baseUrl: opts.baseUrl,
        credentials: { key: k.key, secret: k.secret },
        svc: opts.svc,
        account: uidAccount(k.uid),
        ...(opts.limitsOff ? { limitsOff: true } : { scheduler: opts.scheduler }),
        ...(opts.fetch ? { fetch: opts.fetch } : {}),
        onRefusal: (label, method, path) => opts.onRefusal?.(k.uid, label, method, path),
        ...(opts.onLink ? { onLink: opts.onLink } : {}),
      }),
    );
  }

  uids(): string[] {
    return [...this.clients.keys()];
  }

  has(uid: string): boolean {
    return this.clients.has(uid);
  }

  /** The client that signs with `uid`'s own key. */
  client(uid: string): ApiClient {
    const c = this.clients.get(uid);
    if (!c) throw new NoSubKeyError(uid);
    return c;
  }
}
