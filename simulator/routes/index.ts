import type { Clock } from '../clock.ts';
import type { SandboxOptions } from '../options.ts';
import type { RouteDef } from '../server.ts';
import { accountRoutes } from './accounts.ts';
import { marketRoutes } from './market.ts';
import { orderRoutes } from './orders.ts';
import { recordRoutes } from './records.ts';
import { subAccountAdminRoutes } from './subAccountAdmin.ts';
import { subAccountRoutes } from './subAccounts.ts';
import { transferRoutes } from './transfers.ts';
import { walletRoutes } from './wallet.ts';
import { withdrawalRoutes } from './withdrawals.ts';

export interface RouteDeps {
  clock: Clock;
  options: SandboxOptions;
}

/** Every REST route of the Sandbox below /api/v4; the server wraps them in auth, limits and headers. */
export function allRoutes(deps: RouteDeps): RouteDef[] {
  return [
    ...walletRoutes(),
    ...recordRoutes(),
    ...transferRoutes(),
    ...subAccountRoutes(),
    ...subAccountAdminRoutes(),
    ...withdrawalRoutes(deps.options),
    ...accountRoutes(),
    ...marketRoutes(),
    ...orderRoutes(),
  ];
}
