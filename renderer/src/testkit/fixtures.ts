import { DEFAULT_POLICY } from '../../../shared/api/policy.ts';
import type { ChannelResponse, IntentView, ProfileSummary, VaultStatus } from '../../../shared/ipc.ts';
import type { FakeAnswers } from './fakeDesk.ts';

export const SANDBOX_PROFILE: ProfileSummary = {
  id: 'sandbox', name: 'Sandbox', environment: 'sandbox', base_url: 'http://127.0.0.1:1/api/v4', svc: 'Svc', key_masked: 'abcd…wxyz',
  permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
  sub_keys: [], built_in: true,
};

export const OPEN_VAULT: VaultStatus = { locked: false, backend: null, passphrase_set: false, keychain_note: null, unlock_wait_ms: 0 };

export const TOTAL: ChannelResponse<'totalBalance'> = {
  total: { amount: '1234567.5', currency: 'USDT' },
  details: { spot: { amount: '1200000', currency: 'USDT' }, futures: { amount: '34567.5', currency: 'USDT', unrealised_pnl: '12.5' } },
} as ChannelResponse<'totalBalance'>;

export function intent(over: Partial<IntentView> = {}): IntentView {
  return {
    id: 'i-1', kind: 'withdrawal', client_id: 'desk-1-abc', state: 'pending_approval', created_at: 1_700_000_000_000, updated_at: 1_700_000_000_000,
    body: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '2500.5' },
    attempts: 0, absent_lookups: 0, ...over,
  };
}

/** What every page's shell reads, answered as a fresh Sandbox desk would. */
export function baseAnswers(): FakeAnswers {
  return {
    profileCurrent: SANDBOX_PROFILE,
    profilesList: { active_id: 'sandbox', profiles: [SANDBOX_PROFILE] },
    vaultStatus: OPEN_VAULT,
    settingsGet: { idle_lock_minutes: 15, settle_seconds: 30 },
    intentsList: { items: [], next: null },
    journalStatus: { state: 'ok', damage: null, recovered: null },
    totalBalance: TOTAL,
    userActive: { locked: false },
    withdrawalsList: EMPTY_PAGE, depositsList: EMPTY_PAGE, transfersList: EMPTY_PAGE, uidTransfersList: EMPTY_PAGE,
    withdrawalDetail: { record: null, timeline: [], intent: null, cancellable: false } as never,
    historyStatus: { synced_to: null, watching_since: null, syncing: false, last_error: null, in_flight: 0, deposits_pending: 0, unsent: 0 } as never,
    unsentList: [],
    depositAddress: { currency: 'USDT', address: '', min_deposit_amount: '', multichain_addresses: [] } as never,
    balancesMain: MAIN_BALANCES,
    balancesSnapshots: [],
    balancesMatrix: EMPTY_MATRIX,
    balancesSubAccount: { uid: '1', name: '', fetched_at: null, row: null, spot: null, margin: [], futures: {}, cross_margin: null, risk_threshold: '1.5', floors: [], alerts: [] },
    balancesSettingsGet: { auto_refresh_seconds: 0, default_risk_threshold: '1.5' },
    balanceAlerts: [],
    approvalsState: APPROVALS,
    withdrawalsCancellable: [],
    addressBookList: [],
    walletCurrencyChains: [], walletWithdrawStatus: [], walletSavedAddresses: [],
  };
}

const EMPTY_CELL = { value: '0', amounts: {}, unpriced: [] };
const EMPTY_CELLS = { spot: EMPTY_CELL, margin: EMPTY_CELL, futures_usdt: EMPTY_CELL, futures_btc: EMPTY_CELL, futures_usd: EMPTY_CELL, cross_margin: EMPTY_CELL };

/** A main account holding nothing. */
export const MAIN_BALANCES: ChannelResponse<'balancesMain'> = {
  fetched_at: 1_700_000_000_000, quote: 'USDT', cells: EMPTY_CELLS, total: '0', spot: [], margin: [], futures: {}, cross_margin: null,
};

/** No sub-account loaded yet. */
export const EMPTY_MATRIX: ChannelResponse<'balancesMatrix'> = {
  status: { state: 'ready', loaded: 0, total: 0, fetched_at: 1_700_000_000_000, error: null, requests: 0 },
  quote: 'USDT', total_rows: 0, offset: 0, rows: [],
  column_totals: { spot: '0', margin: '0', futures_usdt: '0', futures_btc: '0', futures_usd: '0', cross_margin: '0' }, grand_total: '0',
};

/** One operator, the default policy, nothing waiting, not frozen. */
export const APPROVALS: ChannelResponse<'approvalsState'> = {
  operators: [{ id: 'op-1', name: 'Alice', state: 'in_force' }],
  needs_first_operator: false,
  policy: { rules: DEFAULT_POLICY.rules, ref: null, refused: null },
  change_quorum: 1,
  cooling_off_hours: 24,
  frozen: null,
  items: [],
  blocked: null,
};

const EMPTY_PAGE = { total: 0, rows: [], next_cursor: null } as never;
