import type { Clock } from '../clock.ts';
import type { SandboxOptions } from '../options.ts';
import type { RouteDef } from '../server.ts';
import { walletRoutes } from './wallet.ts';

export interface RouteDeps {
  clock: Clock;
  options: SandboxOptions;
}

/** Every REST route of the Sandbox below /api/v4; the server wraps them in auth, limits and headers. */
export function allRoutes(_deps: RouteDeps): RouteDef[] {
  return [...walletRoutes];
}
