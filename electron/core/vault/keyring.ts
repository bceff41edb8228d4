import { VaultError } from './errors.ts';
import type { Protection } from './file.ts';

// The master key wrapped by Electron's safeStorage, the system keyring. A keyring that keeps secrets under
// a key built into the program (Linux's basic_text) is refused: it would wrap the key in name only.

type KeyringProtection = Extract<Protection, { kind: 'safe_storage' }>;

/** The part of Electron's safeStorage the vault uses (the Electron host passes the real one in). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only. */
  getSelectedStorageBackend?(): string;
}

/** Why safeStorage cannot hold the vault's key here, or null when it can. */
export function safeStorageProblem(ss: SafeStorageLike | undefined, platform: NodeJS.Platform = process.platform): string | null {
  if (!ss) return 'The system keyring is not available here. Set a passphrase to protect the keys.';
  if (!ss.isEncryptionAvailable()) {
    return 'No system keyring is available here to protect the keys. Set a passphrase to protect them.';
  }
  if (platform === 'linux') {
    const backend = ss.getSelectedStorageBackend?.() ?? 'unknown';
    if (backend === 'basic_text' || backend === 'unknown') {
      return `The system keyring here is the "${backend}" store, which keeps secrets under a key built into the program rather than in a keyring. The desk refuses it: set a passphrase (or start a keyring such as GNOME Keyring or KWallet and restart the desk).`;
    }
  }
  return null;
}

/** `master` wrapped by the keyring, as the vault file keeps it; the caller has checked safeStorageProblem. */
export function wrapWithKeyring(ss: SafeStorageLike, platform: NodeJS.Platform, master: Buffer): KeyringProtection {
  return {
    kind: 'safe_storage',
    wrapped_key: ss.encryptString(master.toString('base64')).toString('base64'),
    backend: platform === 'linux' ? (ss.getSelectedStorageBackend?.() ?? null) : null,
  };
}

/** The key the keyring unwraps, not yet checked against the vault file. */
export function unwrapWithKeyring(ss: SafeStorageLike | undefined, platform: NodeJS.Platform, p: KeyringProtection): Buffer {
  if (!ss || !ss.isEncryptionAvailable()) {
    throw new VaultError(
      'SAFE_STORAGE_UNAVAILABLE',
      "This vault's key is kept by the system keyring, which is not available now (the desk runs without Electron, or no keyring is running). Start the desk in Electron with the keyring available.",
    );
  }
  if (platform === 'linux' && p.backend !== null) {
    const now = ss.getSelectedStorageBackend?.() ?? 'unknown';
    if (now !== p.backend) {
      throw new VaultError(
        'KEYRING_CHANGED',
        `This vault's key was stored with the "${p.backend}" keyring, but the system now offers "${now}". Start the desk in the same desktop session (or with the same --password-store) as before; if that keyring is gone, remove the vault and enter the keys again.`,
      );
    }
  }
  let text: string;
  try {
    text = ss.decryptString(Buffer.from(p.wrapped_key, 'base64'));
  } catch {
    throw new VaultError(
      'KEYRING_CHANGED',
      "The system keyring could not decrypt the vault's key: the keyring was reset, replaced, or belongs to another user. The stored keys cannot be recovered from it; remove the vault and enter the keys again.",
    );
  }
  return Buffer.from(text, 'base64');
}
