import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { maskKey } from '../profiles/profile.ts';
import {
  canonical, DEFAULT_SCRYPT, deriveMasterKey, mac, macEqual, open, seal, splitKeys, type ScryptParams, type VaultKeys,
} from './crypto.ts';
import { VaultError } from './errors.ts';
import { ProfileMeta, VaultFile, writeFileAtomic, type Protection, type StoredKey, type StoredProfile } from './file.ts';

// Secrets of non-Sandbox profiles, encrypted at rest. Two ways to hold the master key: Electron's
// safeStorage (the OS keyring wraps a random key) or a passphrase (scrypt). Only the core calls
// credentials(); everything else sees profiles with masked keys. While locked no key is in memory, so
// nothing can be decrypted and nothing can be signed.

/** The part of Electron's safeStorage the vault uses (the Electron host passes the real one in). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

export interface VaultClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: VaultClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms);
    h.unref?.();
    return h;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface VaultOptions {
  path: string;
  safeStorage?: SafeStorageLike;
  platform?: NodeJS.Platform;
  clock?: VaultClock;
  /** For new vaults and passphrase changes; existing vaults use the parameters stored with their salt. */
  scrypt?: ScryptParams;
}

export interface KeyInput {
  slot: string;
  key: string;
  secret: string;
  permissions?: Record<string, string>;
}

export interface Credentials {
  key: string;
  secret: string;
}

export interface VaultProfile {
  id: string;
  name: string;
  environment: string;
  base_url: string;
  service_name: string;
  keys: Array<{ slot: string; key_masked: string; permissions?: Record<string, string> }>;
}

export interface VaultStatus {
  initialised: boolean;
  protection: Protection['kind'] | null;
  locked: boolean;
  idle_lock_ms: number | null;
}

export type LockEvent = { locked: true; reason: 'idle' | 'on demand' } | { locked: false };

const VERIFIER_TEXT = 'treasury-desk-vault-verifier-v1';
const MIN_PASSPHRASE = 8;
const CREDENTIAL_RE = /^[\x21-\x7e]{1,256}$/;

/** Why safeStorage cannot hold the vault's key here, or null when it can. */
export function safeStorageProblem(ss: SafeStorageLike | undefined, platform: NodeJS.Platform = process.platform): string | null {
  if (!ss) return 'Electron safeStorage is not available in this host. Set a passphrase to protect the keys.';
  if (!ss.isEncryptionAvailable()) {
    return 'The system offers no encryption to Electron safeStorage (no keyring is available). Set a passphrase to protect the keys.';
  }
  if (platform === 'linux') {
    const backend = ss.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text' || backend === 'unknown') {
      return `Electron safeStorage would use the "${backend}" backend here, which keeps secrets under a key built into the program rather than in a keyring. The desk refuses it: set a passphrase (or start a keyring such as GNOME Keyring or KWallet and restart the desk).`;
    }
  }
  return null;
}

export class Vault {
  private file: VaultFile | null;
  private keys: VaultKeys | null = null;
  private idleTimer: unknown = null;
  private lastUse = 0;
  private readonly clock: VaultClock;
  private readonly platform: NodeJS.Platform;
  private readonly listeners = new Set<(e: LockEvent) => void>();

  private constructor(private readonly opts: VaultOptions, file: VaultFile | null) {
    this.file = file;
    this.clock = opts.clock ?? realClock;
    this.platform = opts.platform ?? process.platform;
  }

  /** Reads the vault file (if any). It starts locked. */
  static open(opts: VaultOptions): Vault {
    if (!existsSync(opts.path)) return new Vault(opts, null);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(opts.path, 'utf8'));
    } catch (e) {
      throw new VaultError('CORRUPT', `The vault file ${opts.path} cannot be read as a vault (${(e as Error).message.split('\n')[0]}). It was damaged or replaced; restore it from a backup or remove it and enter the keys again.`);
    }
    const parsed = VaultFile.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new VaultError('CORRUPT', `The vault file ${opts.path} is not in the vault's format (at ${issue.path.join('.') || 'top level'}: ${issue.message}). It was damaged or edited; restore it from a backup or remove it and enter the keys again.`);
    }
    return new Vault(opts, parsed.data);
  }

  on(listener: (e: LockEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(): VaultStatus {
    this.expireIfIdle();
    return {
      initialised: this.file !== null,
      protection: this.file?.protection.kind ?? null,
      locked: this.keys === null,
      idle_lock_ms: this.file?.idle_lock_ms ?? null,
    };
  }

  /** Non-secret parts and masked keys; readable while locked (their integrity is checked at unlock). */
  profiles(): VaultProfile[] {
    return (this.file?.profiles ?? []).map((p) => ({
      id: p.id, name: p.name, environment: p.environment, base_url: p.base_url, service_name: p.service_name,
      keys: p.keys.map((k) => ({ slot: k.slot, key_masked: k.key_masked, ...(k.permissions ? { permissions: { ...k.permissions } } : {}) })),
    }));
  }

  async initWithSafeStorage(): Promise<void> {
    this.mustBeNew();
    const problem = safeStorageProblem(this.opts.safeStorage, this.platform);
    if (problem) throw new VaultError(this.opts.safeStorage?.isEncryptionAvailable() ? 'SAFE_STORAGE_WEAK' : 'SAFE_STORAGE_UNAVAILABLE', problem);
    const ss = this.opts.safeStorage!;
    const master = randomBytes(32);
    const wrapped = ss.encryptString(master.toString('base64'));
    const protection: Protection = {
      kind: 'safe_storage', wrapped_key: wrapped.toString('base64'),
      backend: this.platform === 'linux' ? (ss.getSelectedStorageBackend?.() ?? null) : null,
    };
    this.create(protection, master);
  }

  async initWithPassphrase(passphrase: string): Promise<void> {
    this.mustBeNew();
    checkPassphrase(passphrase);
    const params = this.opts.scrypt ?? DEFAULT_SCRYPT;
    const salt = randomBytes(16);
    const master = await deriveMasterKey(passphrase, salt, params);
    this.create({ kind: 'passphrase', kdf: { name: 'scrypt', salt: salt.toString('base64'), ...params } }, master);
  }

  async unlock(passphrase?: string): Promise<void> {
    const file = this.mustExist();
    const master = file.protection.kind === 'passphrase'
      ? await this.masterFromPassphrase(file.protection, passphrase)
      : this.masterFromSafeStorage(file.protection);
    const keys = splitKeys(master);
    master.fill(0);
    if (open(keys.enc, file.verifier, 'verifier') !== VERIFIER_TEXT) {
      wipe(keys);
      if (file.protection.kind === 'passphrase') {
        throw new VaultError('WRONG_PASSPHRASE', 'The passphrase is not the one this vault was made with. Nothing was unlocked; try again.');
      }
      throw new VaultError('CORRUPT', `The system keyring opened the vault's key, but the key does not match the vault file ${this.opts.path}: the file was replaced or damaged. Restore it from a backup or remove it and enter the keys again.`);
    }
    if (!macEqual(mac(keys.mac, macText(file)), file.mac)) {
      wipe(keys);
      throw new VaultError('TAMPERED', `The vault file ${this.opts.path} was changed outside the desk: its profiles (names, addresses or key entries) no longer match the seal written with them. The desk will not use it. Restore it from a backup, or remove it and enter the keys again.`);
    }
    for (const p of file.profiles) {
      for (const k of p.keys) {
        if (open(keys.enc, k.sealed, aad(p.id, k.slot)) === null) {
          wipe(keys);
          throw new VaultError('CORRUPT', `The key "${k.slot}" of profile "${p.name}" in ${this.opts.path} cannot be decrypted: its entry was damaged or moved from elsewhere. Remove that key and enter it again.`);
        }
      }
    }
    this.keys = keys;
    this.touch();
    this.emit({ locked: false });
  }

  lock(reason: 'idle' | 'on demand' = 'on demand'): void {
    if (this.idleTimer !== null) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.keys) return;
    wipe(this.keys);
    this.keys = null;
    this.emit({ locked: true, reason });
  }

  /** The operator's idle time before the vault locks itself; null never locks on idle. */
  setIdleLock(ms: number | null): void {
    if (ms !== null && (!Number.isInteger(ms) || ms < 1000)) throw new VaultError('INVALID_INPUT', 'The idle time must be at least one second.');
    this.mustBeUnlocked();
    this.save({ ...this.file!, idle_lock_ms: ms });
    this.touch();
  }

  /** Adds or replaces a profile; keys not given are kept (an edit of the name keeps its keys). */
  putProfile(meta: ProfileMeta | (Omit<ProfileMeta, 'service_name'> & { service_name?: string }), keys?: KeyInput[]): VaultProfile {
    const keysNow = this.mustBeUnlocked();
    const m = ProfileMeta.safeParse(meta);
    if (!m.success) {
      const issue = m.error.issues[0]!;
      throw new VaultError('INVALID_INPUT', `profile ${issue.path.join('.')}: ${issue.message}`);
    }
    const existing = this.file!.profiles.find((p) => p.id === m.data.id);
    const stored: StoredKey[] = existing ? [...existing.keys] : [];
    for (const k of keys ?? []) {
      if (!/^(main|sub:\d{1,18})$/.test(k.slot)) throw new VaultError('INVALID_INPUT', `key slot must be "main" or "sub:<uid>", not ${JSON.stringify(k.slot.slice(0, 30))}`);
      if (!CREDENTIAL_RE.test(k.key)) throw new VaultError('INVALID_INPUT', `the key for ${k.slot} must be 1 to 256 visible characters without spaces`);
      if (!CREDENTIAL_RE.test(k.secret)) throw new VaultError('INVALID_INPUT', `the secret for ${k.slot} must be 1 to 256 visible characters without spaces`);
      const entry: StoredKey = {
        slot: k.slot, key_masked: maskKey(k.key), ...(k.permissions ? { permissions: { ...k.permissions } } : {}),
        sealed: seal(keysNow.enc, JSON.stringify({ key: k.key, secret: k.secret }), aad(m.data.id, k.slot)),
      };
      const i = stored.findIndex((s) => s.slot === k.slot);
      if (i >= 0) stored[i] = entry;
      else stored.push(entry);
    }
    const profile: StoredProfile = { ...m.data, keys: stored };
    const profiles = existing
      ? this.file!.profiles.map((p) => (p.id === profile.id ? profile : p))
      : [...this.file!.profiles, profile];
    this.save({ ...this.file!, profiles });
    this.touch();
    return this.profiles().find((p) => p.id === profile.id)!;
  }

  removeProfile(id: string): void {
    this.mustBeUnlocked();
    if (!this.file!.profiles.some((p) => p.id === id)) throw new VaultError('UNKNOWN_PROFILE', `There is no profile ${id} in the vault.`);
    this.save({ ...this.file!, profiles: this.file!.profiles.filter((p) => p.id !== id) });
    this.touch();
  }

  /** Records what a key may do, when the exchange answered READ_ONLY or FORBIDDEN. */
  setPermissions(profileId: string, slot: string, permissions: Record<string, string>): void {
    this.mustBeUnlocked();
    const p = this.profile(profileId);
    const k = p.keys.find((x) => x.slot === slot);
    if (!k) throw new VaultError('UNKNOWN_KEY', `Profile "${p.name}" has no key ${slot}.`);
    const profiles = this.file!.profiles.map((q) => (q.id !== p.id ? q : {
      ...q, keys: q.keys.map((x) => (x.slot === slot ? { ...x, permissions: { ...permissions } } : x)),
    }));
    this.save({ ...this.file!, profiles });
  }

  /** For the core's signing only. Throws LOCKED while locked; each use counts as activity. */
  credentials(profileId: string, slot = 'main'): Credentials {
    const keys = this.mustBeUnlocked();
    const p = this.profile(profileId);
    const k = p.keys.find((x) => x.slot === slot);
    if (!k) throw new VaultError('UNKNOWN_KEY', `Profile "${p.name}" has no key ${slot}.`);
    const plain = open(keys.enc, k.sealed, aad(p.id, k.slot));
    if (plain === null) throw new VaultError('CORRUPT', `The key "${slot}" of profile "${p.name}" cannot be decrypted: its entry was damaged.`);
    this.touch();
    return JSON.parse(plain) as Credentials;
  }

  /**
   * Credentials whose fields are read from the vault at each use, for a client built once per profile:
   * the client signs nothing while the vault is locked (reading them throws LOCKED before anything is sent).
   */
  credentialsView(profileId: string, slot = 'main'): Credentials {
    const get = (): Credentials => this.credentials(profileId, slot);
    return {
      get key() {
        return get().key;
      },
      get secret() {
        return get().secret;
      },
    };
  }

  async changePassphrase(current: string, next: string): Promise<void> {
    const file = this.mustExist();
    this.mustBeUnlocked();
    if (file.protection.kind !== 'passphrase') throw new VaultError('WRONG_BACKEND', 'This vault is protected by the system keyring, not by a passphrase.');
    checkPassphrase(next);
    const oldKeys = splitKeys(await this.masterFromPassphrase(file.protection, current));
    if (open(oldKeys.enc, file.verifier, 'verifier') !== VERIFIER_TEXT) {
      wipe(oldKeys);
      throw new VaultError('WRONG_PASSPHRASE', 'The current passphrase is wrong; the passphrase was not changed.');
    }
    const params = this.opts.scrypt ?? DEFAULT_SCRYPT;
    const salt = randomBytes(16);
    const master = await deriveMasterKey(next, salt, params);
    const newKeys = splitKeys(master);
    master.fill(0);
    const profiles = file.profiles.map((p) => ({
      ...p,
      keys: p.keys.map((k) => {
        const plain = open(oldKeys.enc, k.sealed, aad(p.id, k.slot));
        if (plain === null) throw new VaultError('CORRUPT', `The key "${k.slot}" of profile "${p.name}" cannot be decrypted; the passphrase was not changed.`);
        return { ...k, sealed: seal(newKeys.enc, plain, aad(p.id, k.slot)) };
      }),
    }));
    wipe(oldKeys);
    if (this.keys) wipe(this.keys);
    this.keys = newKeys;
    this.save({
      ...file, profiles,
      protection: { kind: 'passphrase', kdf: { name: 'scrypt', salt: salt.toString('base64'), ...params } },
      verifier: seal(newKeys.enc, VERIFIER_TEXT, 'verifier'),
    });
    this.touch();
  }

  private create(protection: Protection, master: Buffer): void {
    const keys = splitKeys(master);
    master.fill(0);
    this.keys = keys;
    this.save({
      format: 'treasury-desk-vault', version: 1, protection, verifier: seal(keys.enc, VERIFIER_TEXT, 'verifier'),
      idle_lock_ms: null, profiles: [], mac: '0'.repeat(64),
    });
    this.touch();
    this.emit({ locked: false });
  }

  private async masterFromPassphrase(p: Extract<Protection, { kind: 'passphrase' }>, passphrase: string | undefined): Promise<Buffer> {
    if (!passphrase) throw new VaultError('WRONG_PASSPHRASE', 'This vault is protected by a passphrase; enter it to unlock.');
    const { N, r, p: par, salt } = p.kdf;
    return deriveMasterKey(passphrase, Buffer.from(salt, 'base64'), { N, r, p: par });
  }

  private masterFromSafeStorage(p: Extract<Protection, { kind: 'safe_storage' }>): Buffer {
    const ss = this.opts.safeStorage;
    if (!ss || !ss.isEncryptionAvailable()) {
      throw new VaultError('SAFE_STORAGE_UNAVAILABLE', 'This vault is protected by the system keyring, which is not available now (the desk runs without Electron, or the keyring is not running). Start the desk in Electron with the keyring available.');
    }
    if (this.platform === 'linux' && p.backend !== null) {
      const now = ss.getSelectedStorageBackend?.() ?? 'unknown';
      if (now !== p.backend) {
        throw new VaultError('KEYRING_CHANGED', `This vault's key was stored with the "${p.backend}" keyring, but safeStorage now uses "${now}". Start the desk in the same desktop session (or with the same --password-store) as before; if that keyring is gone, remove the vault and enter the keys again.`);
      }
    }
    let text: string;
    try {
      text = ss.decryptString(Buffer.from(p.wrapped_key, 'base64'));
    } catch {
      throw new VaultError('KEYRING_CHANGED', 'The system keyring could not decrypt the vault\'s key: the keyring was reset, replaced, or belongs to another user. The stored keys cannot be recovered from it; remove the vault and enter the keys again.');
    }
    const master = Buffer.from(text, 'base64');
    if (master.length !== 32) throw new VaultError('CORRUPT', 'The system keyring returned something that is not the vault\'s key: the vault file was edited or replaced.');
    return master;
  }

  private save(next: VaultFile): void {
    const keys = this.mustBeUnlocked();
    const sealed: VaultFile = { ...next, mac: mac(keys.mac, macText(next)) };
    writeFileAtomic(this.opts.path, `${JSON.stringify(sealed, null, 2)}\n`);
    this.file = sealed;
  }

  private profile(id: string): StoredProfile {
    const p = this.file?.profiles.find((x) => x.id === id);
    if (!p) throw new VaultError('UNKNOWN_PROFILE', `There is no profile ${id} in the vault.`);
    return p;
  }

  private mustBeNew(): void {
    if (this.file) throw new VaultError('ALREADY_INITIALISED', `A vault exists already at ${this.opts.path}.`);
  }

  private mustExist(): VaultFile {
    if (!this.file) throw new VaultError('NOT_INITIALISED', 'No vault has been set up yet.');
    return this.file;
  }

  private mustBeUnlocked(): VaultKeys {
    this.expireIfIdle();
    if (!this.keys) throw new VaultError('LOCKED', 'The desk is locked: unlock it to use the keys. Nothing is signed while it is locked.');
    return this.keys;
  }

  // Timers can fire late (a laptop asleep); the idle limit is also checked at every use.
  private expireIfIdle(): void {
    const idle = this.file?.idle_lock_ms ?? null;
    if (this.keys && idle !== null && this.clock.now() - this.lastUse >= idle) this.lock('idle');
  }

  private touch(): void {
    this.lastUse = this.clock.now();
    this.arm();
  }

  private arm(): void {
    if (this.idleTimer !== null) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const idle = this.file?.idle_lock_ms ?? null;
    if (!this.keys || idle === null) return;
    const due = this.lastUse + idle - this.clock.now();
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = null;
      this.expireIfIdle();
      if (this.keys) this.arm();
    }, Math.max(0, due));
  }

  private emit(e: LockEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        // A listener's failure must not leave the vault half-locked.
      }
    }
  }
}

function aad(profileId: string, slot: string): string {
  return `profile:${profileId}|slot:${slot}`;
}

function macText(f: VaultFile): string {
  return canonical({ protection: f.protection, verifier: f.verifier, idle_lock_ms: f.idle_lock_ms, profiles: f.profiles });
}

function wipe(k: VaultKeys): void {
  k.enc.fill(0);
  k.mac.fill(0);
}

function checkPassphrase(p: string): void {
  if (typeof p !== 'string' || [...p].length < MIN_PASSPHRASE) {
    throw new VaultError('WEAK_PASSPHRASE', `The passphrase must be at least ${MIN_PASSPHRASE} characters long.`);
  }
}
