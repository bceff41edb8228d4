import type { AdminRouteDef } from './types.ts';

export const ledgerAdminRoutes: AdminRouteDef[] = [];
