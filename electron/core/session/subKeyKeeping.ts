import type { SubKeyClients } from '../client/subKeys.ts';
import type { Profile } from '../profiles/profile.ts';
import type { ProfileStore } from '../profiles/store.ts';
import type { VaultPort } from '../vaultPort.ts';

// The sub-account keys the executor creates and removes at the exchange (writes/executor.ts, keySink and
// keyGone), kept with their profile and in its signing clients.

export interface SubKeyKeepingOptions {
  /** The built-in Sandbox profile, whose keys are play money kept in memory. */
  builtIn?: Profile;
  builtInId: () => string | null;
  store?: ProfileStore;
  vault?: VaultPort;
  /** The active session's profile, if it is profile `id`. */
  live: (id: string) => Profile | null;
  locked: () => boolean;
  /** A profile's keys changed. */
  changed: () => void;
}

export class SubKeyKeeping {
  constructor(private readonly opts: SubKeyKeepingOptions) {}

  /**
   * A created key's secret, straight from the exchange's answer: sealed in the vault with the profile
   * (the built-in Sandbox profile keeps it in memory, as its own keys are play money in the clear), and
   * signing that sub-account's requests at once. `secret` is the caller's, wiped by it.
   */
  keep(id: string, subKeys: SubKeyClients, uid: string, key: string, secret: Buffer): void {
    const own = Buffer.from(secret);
    if (id === this.opts.builtInId()) {
      const p = this.opts.builtIn!;
      p.subKeys = [...(p.subKeys ?? []).filter((k) => k.uid !== uid), { uid, key, secret: own }];
    } else {
      if (!this.opts.store || !this.opts.vault) throw new Error('this desk keeps no stored profiles');
      this.opts.store.keepSubKey(id, uid, key, own, this.opts.vault.box());
      const live = this.opts.live(id);
      if (live) live.subKeys = [...(live.subKeys ?? []).filter((k) => k.uid !== uid), { uid, key, secret: own }];
    }
    subKeys.replace({ uid, key, secret: own });
    this.opts.changed();
  }

  /** A sub-account key removed at the exchange: the profile and the signing clients drop it, if it is the one held. */
  forget(id: string, subKeys: SubKeyClients, uid: string, key: string): void {
    const drop = (p: Profile): void => {
      const gone = p.subKeys?.find((k) => k.uid === uid && k.key === key);
      if (!gone) return;
      p.subKeys = p.subKeys!.filter((k) => k !== gone);
      if (Buffer.isBuffer(gone.secret)) gone.secret.fill(0);
    };
    if (id === this.opts.builtInId()) drop(this.opts.builtIn!);
    else {
      if (this.opts.store && this.opts.vault && !this.opts.locked()) this.opts.store.dropSubKey(id, uid, key, this.opts.vault.box());
      const live = this.opts.live(id);
      if (live) drop(live);
    }
    subKeys.remove(uid, key);
    this.opts.changed();
  }
}
