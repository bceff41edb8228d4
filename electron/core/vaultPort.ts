import type { VaultStatus } from '../../shared/ipc.ts';
import type { SecretBox } from './vault/box.ts';
import type { JournalRegistry } from './vault/register.ts';

/** What the core needs of the vault (electron/core/vault/ implements it). */
export interface VaultPort {
  status(): VaultStatus;
  isLocked(): boolean;
  unlock(passphrase: string): Promise<void>;
  lock(): void;
  /** Never unlocks: needs an unlocked vault (or an empty one) and the current passphrase, or for a keychain vault the operator's confirmation. */
  setPassphrase(current: string | undefined, next: string, confirmLeaveKeychain?: boolean): Promise<void>;
  /** Seals and opens secrets; throws LockedError while locked. */
  box(): SecretBox;
  /** The key that authenticates stored profiles' journals (derived from the master key); throws LockedError while locked. */
  journalKey(): Buffer;
  /** The journals this vault's key ever authenticated, kept in the vault's own file; throws LockedError while locked. */
  journalRegistry(): JournalRegistry;
  /** The operator did something: restart the idle timer. */
  touch(): void;
  setIdleMinutes(minutes: number): void;
  onChange(listener: () => void): () => void;
}

// The vault (another worktree is changing it) still imports LockedError from here.
export { LockedError } from './errors.ts';
