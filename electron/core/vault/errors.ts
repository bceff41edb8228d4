// Every vault failure says exactly what happened and what the operator can do (Signal Desktop's model:
// a changed keyring, a wrong passphrase and a damaged file are different messages, never "error").
// No message ever carries a key, a secret or a passphrase. A locked vault throws the core's LockedError.

export type VaultErrorCode =
  | 'NOT_INITIALISED'
  | 'SAFE_STORAGE_UNAVAILABLE'
  | 'SAFE_STORAGE_WEAK'
  | 'KEYRING_CHANGED'
  | 'WRONG_PASSPHRASE'
  | 'UNLOCK_BACKOFF'
  | 'WEAK_PASSPHRASE'
  | 'CORRUPT'
  | 'INVALID_INPUT';

export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}
