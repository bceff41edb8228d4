import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { VaultStatus } from '../../../shared/ipc.ts';
import { LockedError, type VaultPort } from '../vaultPort.ts';
import { UnlockBackoff } from './backoff.ts';
import { makeSecretBox, type SecretBox } from './box.ts';
import { DEFAULT_SCRYPT, splitKeys, type ScryptParams, type VaultKeys } from './crypto.ts';
import { VaultError } from './errors.ts';
import { VaultFile, writeFileAtomic, type Protection } from './file.ts';
import { safeStorageProblem, unwrapWithKeyring, wrapWithKeyring, type SafeStorageLike } from './keyring.ts';
import { IdleLock, realClock, type VaultClock } from './idleLock.ts';
import { checkPassphrase, formatWait, unwrapWithPassphrase, wrapWithPassphrase } from './passphrase.ts';
import { makeRegister, registerNames, type JournalRegistry } from './register.ts';

// The vault holds one random 256-bit master key, wrapped at rest either by Electron's safeStorage (the
// OS keyring) or by a passphrase (scrypt, then AES-256-GCM). Profile secrets are sealed with a key
// derived from it (box()), so switching from the keyring to a passphrase, or changing the passphrase,
// rewraps one key and leaves every sealed secret as it is. While locked the master key is not in memory:
// nothing can be opened, so nothing can be signed. Only unlock() unlocks: setting or changing the
// passphrase needs an unlocked vault and the current credential.

export interface VaultOptions {
  /** The vault file (vault.json in the desk's data folder). */
  path: string;
  safeStorage?: SafeStorageLike;
  platform?: NodeJS.Platform;
  clock?: VaultClock;
  /** For new passphrases; an existing one is checked with the parameters stored beside its salt. */
  scrypt?: ScryptParams;
  /** Where failed unlocks are counted (default: unlock-backoff.json beside the vault file). */
  backoffPath?: string;
}

const CHECK_TEXT = 'treasury-desk-vault-check-v1';

function checkValue(master: Buffer): string {
  return createHmac('sha256', master).update(CHECK_TEXT).digest('hex');
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

export class DeskVault implements VaultPort {
  private file: VaultFile | null;
  private keys: VaultKeys | null = null;
  /** Why a keyring vault could not open itself at start (shown in status until it can). */
  private keyringError: string | null = null;
  private readonly idle: IdleLock;
  private readonly clock: VaultClock;
  private readonly platform: NodeJS.Platform;
  private readonly listeners = new Set<() => void>();
  private readonly backoff: UnlockBackoff;

  private constructor(
    private readonly opts: VaultOptions,
    file: VaultFile | null,
  ) {
    this.file = file;
    this.clock = opts.clock ?? realClock;
    this.platform = opts.platform ?? process.platform;
    this.idle = new IdleLock(
      this.clock,
      () => this.keys !== null,
      () => this.lock(),
    );
    this.backoff = new UnlockBackoff(opts.backoffPath ?? join(dirname(opts.path), 'unlock-backoff.json'), () => this.clock.now());
  }

  /**
   * Reads the vault file, if any. A passphrase vault starts locked; a keyring vault opens itself when
   * the keyring can unwrap its key, and otherwise stays locked with the reason in status().
   */
  static open(opts: VaultOptions): DeskVault {
    if (!existsSync(opts.path)) return new DeskVault(opts, null);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(opts.path, 'utf8'));
    } catch (e) {
      throw new VaultError(
        'CORRUPT',
        `The vault file ${opts.path} cannot be read as a vault (${(e as Error).message.split('\n')[0]}). It was damaged or replaced: restore it from a backup, or remove it and enter the keys again.`,
      );
    }
    const parsed = VaultFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new VaultError(
        'CORRUPT',
        `The vault file ${opts.path} is not in the vault's format (at ${issue.path.join('.') || 'top level'}: ${issue.message}). It was damaged or edited: restore it from a backup, or remove it and enter the keys again.`,
      );
    }
    const v = new DeskVault(opts, parsed.data);
    if (parsed.data.protection.kind === 'safe_storage') {
      try {
        v.openWith(v.masterFromSafeStorage(parsed.data.protection));
      } catch (e) {
        v.keyringError = (e as Error).message;
      }
    }
    return v;
  }

  status(): VaultStatus {
    const kind = this.file?.protection.kind ?? null;
    return {
      locked: this.isLocked(),
      backend: kind === null ? null : kind === 'safe_storage' ? 'safeStorage' : 'passphrase',
      passphrase_set: kind === 'passphrase',
      keychain_note: this.keyringError ?? (kind === 'safe_storage' ? null : safeStorageProblem(this.opts.safeStorage, this.platform)),
      unlock_wait_ms: kind === 'passphrase' ? this.backoff.waitMs() : 0,
    };
  }

  /** An empty vault is not locked: there is nothing in it yet. */
  isLocked(): boolean {
    this.expireIfIdle();
    return this.file !== null && this.keys === null;
  }

  async unlock(passphrase: string): Promise<void> {
    const file = this.file;
    if (!file) throw new VaultError('NOT_INITIALISED', 'No passphrase has been set yet, so there is nothing to unlock.');
    if (file.protection.kind === 'passphrase') {
      const master = await this.guess(file.protection, passphrase);
      if (!master) {
        throw new VaultError(
          'WRONG_PASSPHRASE',
          `The passphrase is not the one this vault was set with. Nothing was unlocked; ${this.waitSentence('try again')}`,
        );
      }
      this.openWith(master);
    } else {
      try {
        this.openWith(this.masterFromSafeStorage(file.protection));
        this.keyringError = null;
      } catch (e) {
        this.keyringError = (e as Error).message;
        throw e;
      }
    }
    this.emit();
  }

  lock(): void {
    this.idle.clear();
    if (!this.keys) return;
    this.keys.enc.fill(0);
    this.keys.journal.fill(0);
    this.keys.master.fill(0);
    this.keys = null;
    this.emit();
  }

  /**
   * Sets the first passphrase on an empty vault, changes it (the vault unlocked and the current
   * passphrase given), or moves an unlocked keyring vault to a passphrase (confirmed by the operator).
   * It never unlocks a locked vault: a script in the window must not get in through here. Only the
   * master key is rewrapped: every secret sealed before stays readable.
   */
  async setPassphrase(current: string | undefined, next: string, confirmLeaveKeychain = false): Promise<void> {
    checkPassphrase(next);
    let master: Buffer;
    const file = this.file;
    if (!file) {
      master = randomBytes(32);
    } else {
      if (this.isLocked()) {
        throw new LockedError('The desk is locked. Unlock it first; the passphrase can only be set or changed while it is unlocked.');
      }
      if (file.protection.kind === 'passphrase') {
        if (!current) throw new VaultError('WRONG_PASSPHRASE', 'Enter the current passphrase to change it.');
        const m = await this.guess(file.protection, current);
        if (!m)
          throw new VaultError(
            'WRONG_PASSPHRASE',
            `The current passphrase is wrong; the passphrase was not changed. ${this.waitSentence('Try again')}`,
          );
        master = m;
      } else {
        if (!confirmLeaveKeychain) {
          throw new VaultError(
            'INVALID_INPUT',
            'The keys are kept by the system keychain. Moving them to a passphrase must be confirmed: from then on the desk starts locked and only the passphrase opens it.',
          );
        }
        master = Buffer.from(this.keys!.master);
      }
    }
    const protection = await wrapWithPassphrase(master, next, this.opts.scrypt ?? DEFAULT_SCRYPT);
    // Locked (idle or "Lock now") while scrypt ran: finishing would unlock it again.
    if (file && this.isLocked()) {
      master.fill(0);
      throw new LockedError('The desk locked while the passphrase was being changed; nothing was changed. Unlock it and try again.');
    }
    this.write({
      format: 'treasury-desk-vault',
      version: 1,
      check: checkValue(master),
      protection,
      // The register is tagged under a key derived from the master key, which a new passphrase rewraps unchanged.
      ...(file?.journals ? { journals: file.journals } : {}),
    });
    this.keyringError = null;
    this.openWith(master);
    this.emit();
  }

  /**
   * Seals and opens secrets with the vault's key. The first use on a desk with a usable keyring makes a
   * keyring vault; without one, a passphrase must be set first. Each call checks the lock, so a box kept
   * by a caller stops working the moment the vault locks.
   */
  box(): SecretBox {
    if (!this.file) this.createWithKeyring();
    if (this.isLocked()) throw new LockedError();
    return makeSecretBox(() => this.keysOrThrow());
  }

  /** The journals' MAC key; throws LockedError while locked. The caller must not keep it past a lock. */
  journalKey(): Buffer {
    if (!this.file) this.createWithKeyring();
    return this.keysOrThrow().journal;
  }

  /**
   * Which journals this vault's key ever authenticated, in vault.json: an emptied journal with its head
   * deleted is then damage, not a new journal, and nobody without the key can take a name off the list.
   */
  journalRegistry(): JournalRegistry {
    const names = (): string[] => {
      const key = this.journalKey();
      try {
        return registerNames(key, this.file?.journals, this.opts.path);
      } catch (e) {
        throw new VaultError('CORRUPT', (e as Error).message);
      }
    };
    return {
      has: (name) => names().includes(name),
      add: (name) => this.write({ ...this.file!, journals: makeRegister(this.journalKey(), [...names(), name]) }),
    };
  }

  /** The operator did something. Background signing is not activity: it must not hold the vault open. */
  touch(): void {
    this.expireIfIdle();
    if (!this.keys) return;
    this.idle.restart();
  }

  setIdleMinutes(minutes: number): void {
    this.idle.setMinutes(minutes);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private createWithKeyring(): void {
    const problem = safeStorageProblem(this.opts.safeStorage, this.platform);
    if (problem) {
      throw new VaultError(this.opts.safeStorage?.isEncryptionAvailable() ? 'SAFE_STORAGE_WEAK' : 'SAFE_STORAGE_UNAVAILABLE', problem);
    }
    const ss = this.opts.safeStorage!;
    const master = randomBytes(32);
    this.write({
      format: 'treasury-desk-vault',
      version: 1,
      check: checkValue(master),
      protection: wrapWithKeyring(ss, this.platform, master),
    });
    this.openWith(master);
    this.emit();
  }

  /** The master key, or null when the passphrase does not unwrap it. */
  private async masterFromPassphrase(p: Extract<Protection, { kind: 'passphrase' }>, passphrase: string): Promise<Buffer | null> {
    const master = await unwrapWithPassphrase(p, passphrase);
    if (!master) return null;
    const ok = this.checked(master);
    if (!ok) master.fill(0);
    return ok;
  }

  /** One passphrase guess, refused unheard while failed guesses back off; each miss lengthens the wait. */
  private async guess(p: Extract<Protection, { kind: 'passphrase' }>, passphrase: string): Promise<Buffer | null> {
    const wait = this.backoff.waitMs();
    if (wait > 0) {
      throw new VaultError(
        'UNLOCK_BACKOFF',
        `Too many wrong passphrases. Wait ${formatWait(wait)} before trying again; nothing was checked.`,
      );
    }
    const master = await this.masterFromPassphrase(p, passphrase);
    if (master) this.backoff.succeeded();
    else this.backoff.failed();
    this.emit();
    return master;
  }

  private waitSentence(tryAgain: string): string {
    const wait = this.backoff.waitMs();
    return wait > 0 ? `wait ${formatWait(wait)} before the next try.` : `${tryAgain}.`;
  }

  private masterFromSafeStorage(p: Extract<Protection, { kind: 'safe_storage' }>): Buffer {
    const master = this.checked(unwrapWithKeyring(this.opts.safeStorage, this.platform, p));
    if (!master)
      throw new VaultError(
        'CORRUPT',
        `The system keyring returned a key that is not this vault's: the vault file ${this.opts.path} was replaced or edited.`,
      );
    return master;
  }

  private checked(master: Buffer): Buffer | null {
    if (master.length !== 32 || !sameHex(checkValue(master), this.file?.check ?? '')) {
      if (this.file?.protection.kind === 'passphrase' && master.length === 32) {
        throw new VaultError(
          'CORRUPT',
          `The passphrase opened the vault's key, but the key does not match the vault file ${this.opts.path}: the file was edited. Restore it from a backup, or remove it and enter the keys again.`,
        );
      }
      return null;
    }
    return master;
  }

  /** Takes ownership of `master`: it is zeroed on lock. */
  private openWith(master: Buffer): void {
    if (this.keys && this.keys.master !== master) {
      this.keys.enc.fill(0);
      this.keys.journal.fill(0);
      this.keys.master.fill(0);
    }
    this.keys = splitKeys(master);
    this.idle.restart();
  }

  private write(next: VaultFile): void {
    writeFileAtomic(this.opts.path, `${JSON.stringify(next, null, 2)}\n`);
    this.file = next;
  }

  private keysOrThrow(): VaultKeys {
    this.expireIfIdle();
    if (!this.keys) throw new LockedError();
    return this.keys;
  }

  private expireIfIdle(): void {
    this.idle.expireIfIdle();
  }

  private emit(): void {
    for (const fn of this.listeners) {
      try {
        fn();
      } catch {
        // A listener's failure must not leave the vault half-locked.
      }
    }
  }
}
