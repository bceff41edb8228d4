import { DEFAULT_POLICY } from '../../../shared/api/policy.ts';
import { ACCOUNT_KINDS, type MatrixPage } from '../../../shared/balances.ts';
import type { WithdrawalRow } from '../../../shared/history.ts';
import type { ChannelResponse, IntentView, ProfileSummary, VaultStatus } from '../../../shared/ipc.ts';
import type { FakeAnswers } from './fakeDesk.ts';

export const SANDBOX_PROFILE: ProfileSummary = {
  id: 'sandbox',
  name: 'Sandbox',
  environment: 'sandbox',
  base_url: 'http://127.0.0.1:1/api/v4',
  svc: 'Svc',
  key_masked: 'abcd…wxyz',
  permissions: { spot: 'write', futures: 'write', delivery: 'write', wallet: 'write', withdraw: 'write', unified: false },
  sub_keys: [],
  built_in: true,
};

export const OPEN_VAULT: VaultStatus = { locked: false, backend: null, passphrase_set: false, keychain_note: null, unlock_wait_ms: 0 };

export const TOTAL: ChannelResponse<'totalBalance'> = {
  total: { amount: '1234567.5', currency: 'USDT' },
  details: { spot: { amount: '1200000', currency: 'USDT' }, futures: { amount: '34567.5', currency: 'USDT', unrealised_pnl: '12.5' } },
};

export function intent(over: Partial<IntentView> = {}): IntentView {
  return {
    id: 'i-1',
    kind: 'withdrawal',
    client_id: 'desk-1-abc',
    state: 'pending_approval',
    created_at: 1_700_000_000_000,
    updated_at: 1_700_000_000_000,
    body: { currency: 'USDT', chain: 'TRX', address: 'TXkz7nF8cq3PWy7FHLgLFGfBpzyBK5ZNvA', amount: '2500.5' },
    attempts: 0,
    absent_lookups: 0,
    ...over,
  };
}

/** A withdrawal as the core's list answers it: a DONE USDT withdrawal on TRX, with `over` on top. */
export function withdrawalRow(over: Partial<WithdrawalRow> = {}): WithdrawalRow {
  return {
    id: 'w900',
    txid: '',
    block_number: '',
    withdraw_order_id: '',
    timestamp: '1795600000',
    amount: '250',
    fee: '1',
    currency: 'USDT',
    address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    type: 'withdraw',
    fail_reason: '',
    timestamp2: '',
    memo: '',
    status: 'DONE',
    chain: 'TRX',
    desk: { first_seen_at: 1_795_600_000_000, unsent: null },
    ...over,
  };
}

/** What every page's shell reads, answered as a fresh Sandbox desk would. */
/**
 * The first block of a matrix from the desk's cache: `n` sub-accounts from uid 10000100, each with 10 USDT
 * on every kind of account (60 in all), of `totalRows` rows.
 */
export function cachedMatrix(n: number, totalRows = n): MatrixPage {
  const byKind = <T>(v: T) => {
    const all = {} as Record<(typeof ACCOUNT_KINDS)[number], T>;
    for (const k of ACCOUNT_KINDS) all[k] = v;
    return all;
  };
  return {
    status: { state: 'ready', loaded: 15, total: 15, fetched_at: Date.now(), source: 'cache', error: null, requests: 15, unread: [] },
    quote: 'USDT',
    total_rows: totalRows,
    offset: 0,
    rows: Array.from({ length: n }, (_, i) => ({
      uid: String(10_000_100 + i),
      name: `sub ${i}`,
      cells: byKind({ amounts: { USDT: '10' }, value: '10', unpriced: [] }),
      total: '60',
      cross_risk: null,
      margin_risk: null,
      alerts: 0,
    })),
    column_totals: byKind(String(10 * totalRows)),
    grand_total: String(60 * totalRows),
  };
}

export function baseAnswers(): FakeAnswers {
  return {
    profileCurrent: SANDBOX_PROFILE,
    profilesList: { active_id: 'sandbox', profiles: [SANDBOX_PROFILE] },
    vaultStatus: OPEN_VAULT,
    settingsGet: { idle_lock_minutes: 15, settle_seconds: 30 },
    intentsList: { items: [], next: null },
    journalStatus: { state: 'ok', damage: null, recovered: null },
    totalBalance: TOTAL,
    // A desk that never read the exchange before: nothing known to paint first.
    lastKnown: null,
    userActive: { locked: false },
    withdrawalsList: EMPTY_PAGE,
    depositsList: EMPTY_PAGE,
    transfersList: EMPTY_PAGE,
    uidTransfersList: EMPTY_PAGE,
    withdrawalsSentUnlisted: { items: [] },
    withdrawalDetail: { record: null, timeline: [], intent: null, cancellable: false } as never,
    historyStatus: {
      synced_to: null,
      watching_since: null,
      syncing: false,
      last_error: null,
      in_flight: 0,
      deposits_pending: 0,
      unsent: 0,
    },
    unsentList: [],
    unreadRecords: { count: 0, records: [] },
    noticesList: { unread: 0, items: [] },
    deskStatus: { link: { last_answer_at: null, last_failure: null }, rate_limits: { buckets: [] } },
    depositAddress: { currency: 'USDT', address: '', min_deposit_amount: '', multichain_addresses: [] },
    balancesMain: {
      fetched_at: 1_700_000_000_000,
      quote: 'USDT',
      cells: EMPTY_CELLS,
      total: '0',
      spot: [],
      margin: [],
      futures: {},
      cross_margin: null,
    } as never,
    balancesSnapshots: [],
    subAccountsManaged: [],
    subAccountKeys: [],
    subAccountIncident: {
      user_id: '101',
      login_name: 'ops',
      locked: false,
      desk_key: null,
      balances: [],
      open_orders: [],
      withdrawals: [],
      transfers: [],
      unread: null,
      steps: [],
    },
    subAccountIncidentRuns: [],
    dustList: { accounts: [], total_btc: '0', total_gt: '0' },
    dustProgress: { ref: 'b-1', title: '', state: 'sent', approved_by: [], needed: 1, rows: [] },
    dustHistory: { rows: [], page: 1, limit: 100, more: false },
    lowCapCurrencies: { currencies: [], fetched_at: 0 },
    balancesMatrix: {
      status: {
        state: 'ready',
        loaded: 1,
        total: 1,
        fetched_at: 1_700_000_000_000,
        source: 'exchange',
        error: null,
        requests: 1,
        unread: [],
      },
      quote: 'USDT',
      total_rows: 0,
      offset: 0,
      rows: [],
      column_totals: Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, '0'])),
      grand_total: '0',
    } as never,
    balancesSubAccount: {
      uid: '1',
      name: '',
      fetched_at: null,
      source: null,
      error: null,
      row: null,
      spot: null,
      margin: [],
      futures: {},
      cross_margin: null,
      risk_threshold: '1.5',
      floors: [],
      alerts: [],
    },
    balancesSettingsGet: { auto_refresh_seconds: 300, default_risk_threshold: '1.5' },
    balanceAlerts: [],
    approvalsState: APPROVALS,
    journalEntries: { items: [], next: null },
    journalVerify: { verified: true, journals: [] },
    journalExport: { filename: 'journal.csv', text: '', entries: 0 },
    journalAuditKeys: [],
    batchStatus: null,
    payoutsBatches: [],
    policyReplay: { from: 0, to: 0, counted: { desk: 0, exchange: 0 }, rules: [], changed: [], changed_total: 0 },
    requestStatus: { ref: 'r-1', state: 'to_sign', expires_at: null, approved_by: [], needed: 1, rejected: null, intent: null },
    payoutsProgress: {
      ref: 'b-1',
      title: '1 withdrawal from payouts.csv',
      file: 'payouts.csv',
      sha256: '0'.repeat(64),
      state: 'waiting',
      approved_by: [],
      needed: 1,
      rows: [],
      counts: { pending: 0, sent: 0, refused: 0, skipped: 0 },
    },
    withdrawalsCancellable: [],
    addressBookList: [],
    walletCurrencyChains: [],
    walletWithdrawStatus: [],
    walletSavedAddresses: [],
    rebalanceScope: { currency: 'USDT', read_at: 0, accounts: [] },
    rebalanceTemplates: [],
    rebalanceBatches: [],
    spotPairs: [PAIR],
    spotTicker: { currency_pair: 'BTC_USDT', last: '60000', lowest_ask: '60010', highest_bid: '59990' },
    spotOrderBook: { current: 1_700_000_000_000, update: 1_700_000_000_000, asks: [['60010', '0.5']], bids: [['59990', '0.4']] },
    spotOrders: [],
    spotTrades: [],
    teamStatus: { domain: 'sandbox', team: null },
    teamVerify: { team: false },
    statementAccounts: [{ account: 'main', label: 'Main account', readable: true }],
    statementProgress: { running: false, done: 0, of: 0, unit: 'windows' },
  };
}

/** The Sandbox's BTC_USDT rules. */
export const PAIR: ChannelResponse<'spotPairs'>[number] = {
  id: 'BTC_USDT',
  base: 'BTC',
  quote: 'USDT',
  fee: '0.2',
  min_base_amount: '0.0001',
  min_quote_amount: '1',
  amount_precision: 4,
  precision: 2,
  trade_status: 'tradable',
};

/** One operator, the default policy, nothing waiting, not frozen. */
export const APPROVALS: ChannelResponse<'approvalsState'> = {
  operators: [{ id: 'op-1', name: 'Alice', state: 'in_force', role: 'admin', role_ahead: 'admin' }],
  needs_first_operator: false,
  policy: { rules: DEFAULT_POLICY.rules, ref: null, refused: null },
  change_quorum: 1,
  resilience: { strictest: 'rule confirm-every-write', needs: 1, signers: 1, margin: 0, able: ['Alice'] },
  cooling_off_hours: 24,
  frozen: null,
  items: [],
  blocked: null,
};

const EMPTY_PAGE = { total: 0, rows: [], next_cursor: null } as never;
const EMPTY_CELLS = Object.fromEntries(ACCOUNT_KINDS.map((k) => [k, { value: '0', amounts: {}, unpriced: [] }]));
