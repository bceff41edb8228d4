import type { PermissionGroup } from '../../../shared/api/environments.ts';
import { permissionGroupFor } from '../../../shared/api/environments.ts';
import { ApiClient, type ApiRequest, type LinkOutcome, type UnreadRecord } from '../client/client.ts';
import type { Scheduler } from '../client/scheduler.ts';
import { SubKeyClients } from '../client/subKeys.ts';
import type { WindowFirst } from '../client/windowFirst.ts';
import { AuditorProfileError } from '../errors.ts';
import type { Profile } from '../profiles/profile.ts';
import type { ProfileStore } from '../profiles/store.ts';

// The clients that sign for a profile, its main key's and one per sub-account key, all on the one
// scheduler; the exchange's refusals they meet correct what the stored profile says its keys may do.

export interface ProfileClientsOptions {
  scheduler: Scheduler;
  store?: ProfileStore;
  builtInId: () => string | null;
  onLink?: (outcome: LinkOutcome) => void;
  onUnread?: (req: ApiRequest, unread: UnreadRecord[]) => void;
  windowFirst?: WindowFirst;
  /** A stored profile's permissions were corrected. */
  onCorrected?: (id: string) => void;
}

export class ProfileClients {
  constructor(private readonly opts: ProfileClientsOptions) {}

  /**
   * `learnFor`: the stored profile whose permissions this client's refusals correct, whoever sends through
   * it (a page, a background sync, a write). The probe of a key not yet saved corrects nothing.
   */
  main(profile: Profile, learnFor?: string): ApiClient {
    const limitsOff = profile.environment === 'sandbox' && profile.limitsOff === true;
    const client = new ApiClient({
      // An auditor profile has no address either (a Sandbox auditor's is empty); its client never sends.
      baseUrl: profile.auditor ? 'http://127.0.0.1/api/v4' : profile.baseUrl,
      credentials: profile.credentials,
      svc: profile.svc,
      ...(profile.auditor ? { keyless: () => new AuditorProfileError() } : {}),
      ...(limitsOff ? { limitsOff: true } : { scheduler: this.opts.scheduler }),
      ...(this.opts.onLink ? { onLink: this.opts.onLink } : {}),
      ...(this.opts.windowFirst ? { windowFirst: this.opts.windowFirst } : {}),
      ...(learnFor !== undefined
        ? {
            onRefusal: (label, method, path) => this.learnFromLabel(label, method, path, { id: learnFor }),
            onUnread: (req, unread) => this.opts.onUnread?.(req, unread),
          }
        : {}),
    });
    // Learn the exchange's clock up front; should it fail, answers' X-In-Time and the one resync after a
    // REQUEST_EXPIRED still correct it.
    if (!profile.auditor) void client.syncClock('background').catch(() => {});
    return client;
  }

  subs(id: string, profile: Profile): SubKeyClients {
    const limitsOff = profile.environment === 'sandbox' && profile.limitsOff === true;
    return new SubKeyClients({
      baseUrl: profile.baseUrl,
      svc: profile.svc,
      keys: profile.subKeys ?? [],
      ...(limitsOff ? { limitsOff: true } : { scheduler: this.opts.scheduler }),
      onRefusal: (uid, label, method, path) => this.learnFromLabel(label, method, path, { id, uid }),
      ...(this.opts.onLink ? { onLink: this.opts.onLink } : {}),
    });
  }

  /**
   * READ_ONLY or FORBIDDEN proves the key's permission for that group is less than declared: record
   * what the exchange proved so that the desk stops offering what the key cannot do. `key.uid`: the
   * refusal answered that sub-account's key of profile `key.id`, not the main key.
   */
  private learnFromLabel(label: string, method: string, path: string, key: { id: string; uid?: string }): void {
    if (label !== 'READ_ONLY' && label !== 'FORBIDDEN') return;
    const group: PermissionGroup | null = permissionGroupFor(method, path);
    if (!group || key.id === this.opts.builtInId() || !this.opts.store) return;
    const level = label === 'READ_ONLY' ? 'read' : 'none';
    const changed =
      key.uid !== undefined
        ? this.opts.store.correctSubPermission(key.id, key.uid, group, level)
        : this.opts.store.correctPermission(key.id, group, level);
    if (changed) this.opts.onCorrected?.(key.id);
  }
}
