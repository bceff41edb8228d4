import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createCore, type ConfirmCore, type Core, type CoreOptions } from './core.ts';
import { deskStateDir } from './paths.ts';
import { builtInSandbox } from './profiles/sandbox.ts';
import type { SafeStorageLike } from './vault/keyring.ts';
import { DeskVault } from './vault/vault.ts';

export interface DeskOptions {
  /** The desk's data folder (deskHome()). */
  home: string;
  /** Where the journals' anchors are kept, outside the data folder (default: deskStateDir(home)). */
  stateDir?: string;
  /** The running Sandbox's credentials.json: its profile is built in. */
  sandboxCredentialsPath?: string;
  /** Electron's safeStorage, where the host has one. */
  safeStorage?: SafeStorageLike;
  log?: (line: string) => void;
  /** Pace of the history loops (tests and benchmarks). */
  history?: CoreOptions['history'];
  /** How long approved operator and policy changes, and new address-book entries, wait (24 h by default). */
  coolingOffMs?: number;
  /** A write attempt's deadline and the settle window after it (tests shorten them; writes/doubt.ts). */
  writes?: CoreOptions['writes'];
}

/** TREASURY_DESK_COOLING_OFF_HOURS, read once at start by whoever starts the desk (not a window setting a script could change). */
export function coolingOffFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.TREASURY_DESK_COOLING_OFF_HOURS;
  if (raw === undefined || raw === '') return undefined;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours < 0 || hours > 24 * 30)
    throw new Error(`TREASURY_DESK_COOLING_OFF_HOURS must be a number of hours from 0 to 720, not "${raw}"`);
  return hours * 3_600_000;
}

function withBuiltIn(home: string, credentialsPath: string | undefined): Pick<CoreOptions, 'profile' | 'sandboxCredentialsPath'> {
  const profile = builtInSandbox(home, credentialsPath);
  return { ...(profile ? { profile } : {}), ...(credentialsPath ? { sandboxCredentialsPath: credentialsPath } : {}) };
}

/** The core as both hosts run it: stored profiles behind the vault, the built-in Sandbox profile, journals. */
export function openDesk(opts: DeskOptions): Core & ConfirmCore {
  // Only the operator's own account may read the desk's folder.
  mkdirSync(opts.home, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(opts.home, 0o700);
  const vault = DeskVault.open({ path: join(opts.home, 'vault.json'), ...(opts.safeStorage ? { safeStorage: opts.safeStorage } : {}) });
  return createCore({
    dataDir: opts.home,
    vault,
    stateDir: opts.stateDir ?? deskStateDir(opts.home),
    // The Sandbox of another desk, once this one joined its rehearsal (docs/team.md §Rehearsing a team); else its own.
    ...withBuiltIn(opts.home, opts.sandboxCredentialsPath),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.history ? { history: opts.history } : {}),
    ...(opts.coolingOffMs !== undefined ? { coolingOffMs: opts.coolingOffMs } : {}),
    ...(opts.writes ? { writes: opts.writes } : {}),
    // A host listens first and answers the window's first reads before the start-up work (startUp.ts).
    deferStartUp: true,
  });
}
