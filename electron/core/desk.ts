import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createCore, type Core, type CoreOptions } from './core.ts';
import { sandboxProfile } from './profiles/sandbox.ts';
import { DeskVault, type SafeStorageLike } from './vault/vault.ts';

export interface DeskOptions {
  /** The desk's data folder (deskHome()). */
  home: string;
  /** The running Sandbox's credentials.json: its profile is built in. */
  sandboxCredentialsPath?: string;
  /** Electron's safeStorage, where the host has one. */
  safeStorage?: SafeStorageLike;
  log?: (line: string) => void;
  /** Pace of the history loops (tests and benchmarks). */
  history?: CoreOptions['history'];
}

/** The core as both hosts run it: stored profiles behind the vault, the built-in Sandbox profile, journals. */
export function openDesk(opts: DeskOptions): Core {
  // Only the operator's own account may read the desk's folder.
  mkdirSync(opts.home, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(opts.home, 0o700);
  const vault = DeskVault.open({ path: join(opts.home, 'vault.json'), ...(opts.safeStorage ? { safeStorage: opts.safeStorage } : {}) });
  return createCore({
    dataDir: opts.home,
    vault,
    ...(opts.sandboxCredentialsPath ? { profile: sandboxProfile(opts.sandboxCredentialsPath) } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.history ? { history: opts.history } : {}),
  });
}
