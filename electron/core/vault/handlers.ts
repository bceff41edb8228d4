import type { VaultStatus } from '../../../shared/ipc.ts';
import { InputError } from '../errors.ts';
import type { HandlerDeps, Handlers } from '../handlerDeps.ts';
import type { VaultPort } from '../vaultPort.ts';

type VaultChannels = 'vaultStatus' | 'vaultUnlock' | 'vaultLock' | 'vaultSetPassphrase' | 'userActive' | 'settingsGet' | 'settingsSave';

const NO_VAULT: VaultStatus = {
  locked: false,
  backend: null,
  passphrase_set: false,
  keychain_note: 'This desk runs with a pinned profile and keeps no secrets.',
  unlock_wait_ms: 0,
};

function needVault(deps: HandlerDeps): VaultPort {
  if (!deps.vault) throw new InputError([], NO_VAULT.keychain_note!);
  return deps.vault;
}

// The settings travel with the vault: saving them moves the vault's idle lock, and any activity postpones it.
export const vaultHandlers: Pick<Handlers, VaultChannels> = {
  vaultStatus: async (_req, { vault }) => vault?.status() ?? NO_VAULT,
  vaultUnlock: async (req, deps) => {
    const vault = needVault(deps);
    await vault.unlock(req.passphrase);
    return vault.status();
  },
  vaultLock: async (_req, deps) => {
    const vault = needVault(deps);
    vault.lock();
    return vault.status();
  },
  vaultSetPassphrase: async (req, deps) => {
    const vault = needVault(deps);
    await vault.setPassphrase(req.current, req.next, req.leave_keychain === true);
    return vault.status();
  },

  userActive: async (_req, { vault }) => {
    vault?.touch();
    return { locked: vault?.isLocked() ?? false };
  },
  settingsGet: async (_req, { settings }) => settings.get(),
  settingsSave: async (req, { settings, vault }) => {
    vault?.setIdleMinutes(req.idle_lock_minutes);
    return settings.set(req);
  },
};
