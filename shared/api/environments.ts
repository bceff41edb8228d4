// §1 base addresses. The spec names them only as {base_url}, {testnet_base_url} and {futures_base_url};
// the addresses below are the live service's published ones (Gate API v4 documentation; the same
// addresses stand in ccxt's gate client `urls.api`), offered as defaults the operator may change.
// The service name in header prefixes (§4.3) is the live service's "Gate"; the spec's "Svc" is the default.
export const ENVIRONMENT_NAMES = ['live', 'testnet', 'futures', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENT_NAMES)[number];
/** The environments an operator adds a profile for; the Sandbox's profile is built in. */
export const OPERATOR_ENVIRONMENTS = ['live', 'testnet', 'futures'] as const satisfies readonly Environment[];
export type OperatorEnvironment = (typeof OPERATOR_ENVIRONMENTS)[number];

export const ENVIRONMENTS = {
  live: { label: 'Live', base_url: 'https://api.gateio.ws/api/v4', svc: 'Gate' },
  testnet: { label: 'Simulated trading (futures only)', base_url: 'https://fx-api-testnet.gateio.ws/api/v4', svc: 'Gate' },
  futures: { label: 'Futures alternative (futures only)', base_url: 'https://fx-api.gateio.ws/api/v4', svc: 'Gate' },
  sandbox: { label: 'Sandbox (local, play money)', base_url: '', svc: 'Svc' },
} as const satisfies Record<Environment, { label: string; base_url: string; svc: string }>;

/** §5.2 permission groups of a key, each disabled, read-only or read-write, plus `unified`. */
export const PERMISSION_GROUPS = ['spot', 'futures', 'delivery', 'wallet', 'withdraw'] as const;
export type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
export const PERMISSION_GROUP_NAMES: Record<PermissionGroup, string> = {
  spot: 'Spot / margin',
  futures: 'Perpetual futures',
  delivery: 'Delivery futures',
  wallet: 'Wallet',
  withdraw: 'Withdrawal',
};

/** §5.2: which group an endpoint belongs to. POST /withdrawals is in the withdrawal group; GET /wallet/withdrawals stays in wallet. */
export function permissionGroupFor(method: string, path: string): PermissionGroup | null {
  if (/^\/withdrawals(\/|$)/.test(path)) return method.toUpperCase() === 'GET' ? 'wallet' : 'withdraw';
  if (/^\/wallet(\/|$)/.test(path)) return 'wallet';
  if (/^\/(spot|margin)(\/|$)/.test(path)) return 'spot';
  if (/^\/futures(\/|$)/.test(path)) return 'futures';
  if (/^\/delivery(\/|$)/.test(path)) return 'delivery';
  return null;
}
