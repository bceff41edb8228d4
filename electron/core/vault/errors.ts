// Every vault failure says exactly what happened and what the operator can do (Signal Desktop's model:
// a changed keyring, a wrong passphrase and a damaged file are different messages, never "error").
// No message ever carries a key, a secret or a passphrase.

export type VaultErrorCode =
  | 'NOT_INITIALISED' | 'ALREADY_INITIALISED' | 'SAFE_STORAGE_UNAVAILABLE' | 'SAFE_STORAGE_WEAK' | 'KEYRING_CHANGED'
  | 'WRONG_PASSPHRASE' | 'WEAK_PASSPHRASE' | 'CORRUPT' | 'TAMPERED' | 'LOCKED' | 'UNKNOWN_PROFILE' | 'UNKNOWN_KEY'
  | 'WRONG_BACKEND' | 'INVALID_INPUT';

export class VaultError extends Error {
  /** A request that fails with this error never left: signing needs the vault. */
  readonly requestNotSent = true;

  constructor(readonly code: VaultErrorCode, message: string) {
    super(message);
    this.name = 'VaultError';
  }
}
