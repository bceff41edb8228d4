import type { VaultStatus } from '../../../../shared/ipc.ts';

/** No keychain and no passphrase yet: a live key cannot be stored until the operator sets a passphrase. */
export function passphraseNeeded(s: VaultStatus | undefined): boolean {
  return !!s && s.backend === null && !s.passphrase_set && s.keychain_note !== null;
}
