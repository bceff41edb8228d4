import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { ChannelName } from '../../../shared/ipc.ts';
import { DEFAULT_POLICY } from '../../../shared/api/policy.ts';
import { KEPT_FRESH_BY_EVENTS, QUERY_CHANNELS } from '../../../shared/ipcStale.ts';
import { fakeDesk } from '../testkit/fakeDesk.ts';
import { baseAnswers, intent, OPEN_VAULT } from '../testkit/fixtures.ts';
import { renderWithDesk } from '../testkit/renderPage.tsx';
import { useDeskMutation, useDeskQuery } from './hooks.ts';

// Every read the window may hold at once, and the event wiring: what each event and write refetches.
// (The page wrapper wires the events into the cache, as the shell does.)
function AllReads() {
  const reads = {
    profileCurrent: useDeskQuery('profileCurrent', {}),
    profilesList: useDeskQuery('profilesList', {}),
    vaultStatus: useDeskQuery('vaultStatus', {}),
    settingsGet: useDeskQuery('settingsGet', {}),
    intentsList: useDeskQuery('intentsList', { unfinished_only: false }),
    journalStatus: useDeskQuery('journalStatus', {}),
    journalEntries: useDeskQuery('journalEntries', {}),
    journalVerify: useDeskQuery('journalVerify', {}),
    totalBalance: useDeskQuery('totalBalance', { currency: 'USDT' }),
    lastKnown: useDeskQuery('lastKnown', { channel: 'totalBalance', request: { currency: 'USDT' } }),
    withdrawalsList: useDeskQuery('withdrawalsList', {}),
    depositsList: useDeskQuery('depositsList', {}),
    transfersList: useDeskQuery('transfersList', {}),
    uidTransfersList: useDeskQuery('uidTransfersList', {}),
    withdrawalsSentUnlisted: useDeskQuery('withdrawalsSentUnlisted', {}),
    withdrawalDetail: useDeskQuery('withdrawalDetail', { id: 'w1' }),
    historyStatus: useDeskQuery('historyStatus', {}),
    unsentList: useDeskQuery('unsentList', {}),
    depositAddress: useDeskQuery('depositAddress', { currency: 'USDT' }),
    balancesMain: useDeskQuery('balancesMain', {}),
    balancesSnapshots: useDeskQuery('balancesSnapshots', {}),
    balancesMatrix: useDeskQuery('balancesMatrix', {}),
    balancesSubAccount: useDeskQuery('balancesSubAccount', { uid: '1' }),
    balancesSettingsGet: useDeskQuery('balancesSettingsGet', {}),
    balanceAlerts: useDeskQuery('balanceAlerts', {}),
    approvalsState: useDeskQuery('approvalsState', {}),
    withdrawalsCancellable: useDeskQuery('withdrawalsCancellable', {}),
    batchStatus: useDeskQuery('batchStatus', { ref: 'b-1' }),
    requestStatus: useDeskQuery('requestStatus', { ref: 'r-1' }),
    policyReplay: useDeskQuery('policyReplay', { policy: DEFAULT_POLICY }),
    addressBookList: useDeskQuery('addressBookList', {}),
    walletCurrencyChains: useDeskQuery('walletCurrencyChains', { currency: 'USDT' }),
    walletWithdrawStatus: useDeskQuery('walletWithdrawStatus', {}),
    walletSavedAddresses: useDeskQuery('walletSavedAddresses', { currency: 'USDT' }),
    journalAuditKeys: useDeskQuery('journalAuditKeys', {}),
    payoutsProgress: useDeskQuery('payoutsProgress', { ref: 'b-1' }),
    payoutsBatches: useDeskQuery('payoutsBatches', {}),
    rebalanceScope: useDeskQuery('rebalanceScope', { currency: 'USDT' }),
    rebalanceTemplates: useDeskQuery('rebalanceTemplates', {}),
    rebalanceBatches: useDeskQuery('rebalanceBatches', {}),
    spotPairs: useDeskQuery('spotPairs', {}),
    spotTicker: useDeskQuery('spotTicker', { currency_pair: 'BTC_USDT' }),
    spotOrderBook: useDeskQuery('spotOrderBook', { currency_pair: 'BTC_USDT' }),
    spotOrders: useDeskQuery('spotOrders', { currency_pair: 'BTC_USDT', status: 'open' }),
    dustList: useDeskQuery('dustList', {}),
    dustProgress: useDeskQuery('dustProgress', { ref: 'b-1' }),
    dustHistory: useDeskQuery('dustHistory', { account: 'main' }),
    lowCapCurrencies: useDeskQuery('lowCapCurrencies', {}),
    subAccountsManaged: useDeskQuery('subAccountsManaged', {}),
    subAccountKeys: useDeskQuery('subAccountKeys', { user_id: '101' }),
    subAccountIncident: useDeskQuery('subAccountIncident', { user_id: '101' }),
    subAccountIncidentRuns: useDeskQuery('subAccountIncidentRuns', { user_id: '101' }),
    spotTrades: useDeskQuery('spotTrades', { currency_pair: 'BTC_USDT' }),
    unreadRecords: useDeskQuery('unreadRecords', {}),
    noticesList: useDeskQuery('noticesList', {}),
    deskStatus: useDeskQuery('deskStatus', {}),
    teamStatus: useDeskQuery('teamStatus', {}),
    teamVerify: useDeskQuery('teamVerify', {}),
    statementAccounts: useDeskQuery('statementAccounts', {}),
    statementProgress: useDeskQuery('statementProgress', {}),
  };
  const save = useDeskMutation('settingsSave');
  return (
    <div>
      <p data-testid="loaded">{Object.values(reads).every((r) => r.isSuccess) ? 'yes' : 'no'}</p>
      <p data-testid="intents">{reads.intentsList.data?.items.map((i) => `${i.id}:${i.state}`).join(',')}</p>
      <p data-testid="idle">{reads.settingsGet.data?.idle_lock_minutes}</p>
      <p data-testid="locked">{String(reads.vaultStatus.data?.locked)}</p>
      <button type="button" onClick={() => save.mutate({ idle_lock_minutes: 42, settle_seconds: 30 })}>
        save
      </button>
    </div>
  );
}

async function setUp() {
  const fake = fakeDesk({
    ...baseAnswers(),
    settingsSave: (r) => ({ idle_lock_minutes: r.idle_lock_minutes, settle_seconds: r.settle_seconds }),
  });
  renderWithDesk(fake, <AllReads />);
  await waitFor(() => expect(screen.getByTestId('loaded').textContent).toBe('yes'));
  const counts = () => Object.fromEntries(QUERY_CHANNELS.map((c) => [c, fake.count(c)])) as Record<ChannelName, number>;
  /** Lets every refetch an event started run to its end, then answers how many more calls each read made. */
  const after = async (before: Record<string, number>, step: () => void) => {
    await act(async () => {
      step();
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
    });
    const now = counts();
    return Object.fromEntries(QUERY_CHANNELS.map((c) => [c, now[c] - before[c]!]).filter(([, n]) => n !== 0));
  };
  return { fake, counts, after };
}

const BALANCES_ONCE = {
  balancesMain: 1,
  balancesSnapshots: 1,
  balancesMatrix: 1,
  balancesSubAccount: 1,
  balanceAlerts: 1,
  balancesSettingsGet: 1,
};
const APPROVALS_ONCE = { approvalsState: 1, withdrawalsCancellable: 1, batchStatus: 1, requestStatus: 1, policyReplay: 1, teamStatus: 1 };
const WALLET_ONCE = { addressBookList: 1, walletCurrencyChains: 1, walletWithdrawStatus: 1, walletSavedAddresses: 1 };
const REBALANCE_ONCE = { rebalanceScope: 1, rebalanceTemplates: 1, rebalanceBatches: 1 };
const HISTORY_ONCE = {
  withdrawalsList: 1,
  depositsList: 1,
  transfersList: 1,
  uidTransfersList: 1,
  withdrawalsSentUnlisted: 1,
  withdrawalDetail: 1,
  historyStatus: 1,
  unsentList: 1,
};

describe('targeted refresh: each event and write refetches only what it makes stale', () => {
  it('loads each read once', async () => {
    const { counts } = await setUp();
    expect(Object.values(counts())).toEqual(QUERY_CHANNELS.map(() => 1));
  });

  it('writes an intent event straight into the list and refetches only the cancellable withdrawals, the sent-not-listed ones and the journal entries', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('intent', intent({ id: 'w-9', state: 'in_flight' })))).toEqual({
      withdrawalsSentUnlisted: 1,
      withdrawalsCancellable: 1,
      batchStatus: 1,
      requestStatus: 1,
      journalEntries: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
    });
    expect(screen.getByTestId('intents').textContent).toBe('w-9:in_flight');
    expect(await after(counts(), () => fake.emit('intent', intent({ id: 'w-9', state: 'unconfirmed' })))).toEqual({
      withdrawalsSentUnlisted: 1,
      withdrawalsCancellable: 1,
      batchStatus: 1,
      requestStatus: 1,
      journalEntries: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
    });
    expect(screen.getByTestId('intents').textContent).toBe('w-9:unconfirmed');
  });

  it('keeps the newer state when an older view of the same intent arrives after it', async () => {
    const { fake, counts, after } = await setUp();
    await after(counts(), () => fake.emit('intent', intent({ id: 'w-9', state: 'accepted', updated_at: 2000 })));
    await after(counts(), () => fake.emit('intent', intent({ id: 'w-9', state: 'unconfirmed', updated_at: 1000 })));
    expect(screen.getByTestId('intents').textContent).toBe('w-9:accepted');
  });

  it('refetches the book, the orders and the trades when a spot order moves', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('intent', intent({ id: 'o-1', kind: 'spot_order', state: 'in_flight' })))).toEqual({
      withdrawalsCancellable: 1,
      batchStatus: 1,
      requestStatus: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
      journalEntries: 1,
      spotOrderBook: 1,
      spotOrders: 1,
      spotTicker: 1,
      spotTrades: 1,
    });
  });

  it('refetches every balance figure, and only those, when an intent says money moved', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('intent', intent({ id: 'w-9', state: 'accepted' })))).toEqual({
      withdrawalsSentUnlisted: 1,
      totalBalance: 1,
      balancesMain: 1,
      balancesMatrix: 1,
      balancesSubAccount: 1,
      rebalanceScope: 1,
      withdrawalsCancellable: 1,
      batchStatus: 1,
      requestStatus: 1,
      journalEntries: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
    });
  });

  it('refetches the balance reads when a balances load ends, not while it runs', async () => {
    const { fake, counts, after } = await setUp();
    const progress = { scope: 'sub_accounts' as const, loaded: 3, total: 15, error: null };
    expect(await after(counts(), () => fake.emit('balancesProgress', { ...progress, done: false }))).toEqual({});
    expect(await after(counts(), () => fake.emit('balancesProgress', { ...progress, loaded: 15, done: true }))).toEqual({
      balancesMain: 1,
      balancesMatrix: 1,
      balancesSubAccount: 1,
      balanceAlerts: 1,
    });
  });

  it('refetches the profile-scoped reads on a profile event, not the vault or the settings', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('profiles', { active_id: 'sandbox' }))).toEqual({
      profileCurrent: 1,
      profilesList: 1,
      journalStatus: 1,
      intentsList: 1,
      journalEntries: 1,
      journalVerify: 1,
      journalAuditKeys: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
      totalBalance: 1,
      lastKnown: 1,
      ...HISTORY_ONCE,
      depositAddress: 1,
      ...BALANCES_ONCE,
      ...APPROVALS_ONCE,
      ...WALLET_ONCE,
      ...REBALANCE_ONCE,
      spotOrderBook: 1,
      spotOrders: 1,
      spotTicker: 1,
      spotTrades: 1,
      unreadRecords: 1,
      dustList: 1,
      dustProgress: 1,
      dustHistory: 1,
      lowCapCurrencies: 1,
      subAccountsManaged: 1,
      subAccountKeys: 1,
      subAccountIncident: 1,
      subAccountIncidentRuns: 1,
      teamVerify: 1,
    });
  });

  it('refetches the approvals queue, the cancellable withdrawals, the address book and the journal entries, and only them, on an approvals event', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('approvals', {}))).toEqual({
      ...APPROVALS_ONCE,
      // An approved removal takes an entry out of the address book.
      addressBookList: 1,
      journalEntries: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
      rebalanceBatches: 1,
      dustProgress: 1,
      subAccountIncidentRuns: 1,
    });
  });

  it('refetches the small-balance reads for a conversion and the sub-account reads for a management write, not for others', async () => {
    const { fake, counts, after } = await setUp();
    const onIntent = {
      withdrawalsCancellable: 1,
      batchStatus: 1,
      requestStatus: 1,
      payoutsProgress: 1,
      payoutsBatches: 1,
      journalEntries: 1,
    };
    expect(
      await after(counts(), () => fake.emit('intent', intent({ id: 'c-1', kind: 'small_balance_convert', state: 'in_flight' }))),
    ).toEqual({
      ...onIntent,
      dustList: 1,
      dustProgress: 1,
      dustHistory: 1,
    });
    expect(await after(counts(), () => fake.emit('intent', intent({ id: 'l-1', kind: 'sub_account_lock', state: 'in_flight' })))).toEqual({
      ...onIntent,
      subAccountsManaged: 1,
      subAccountKeys: 1,
      subAccountIncident: 1,
      subAccountIncidentRuns: 1,
    });
  });

  it('refetches the rebalance batches and the balances, not the scope read, when a batch moves on', async () => {
    const { fake, counts, after } = await setUp();
    const { balancesSettingsGet: _, ...moved } = BALANCES_ONCE;
    expect(await after(counts(), () => fake.emit('rebalance', { ref: 'r1' }))).toEqual({ rebalanceBatches: 1, ...moved });
  });

  it('refetches the history reads, and only them, on a history event', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('history', { changes: [], in_flight: 0, unsent: 0 }))).toEqual(HISTORY_ONCE);
    // A notification changes no read but the notices the core keeps for the tray.
    expect(await after(counts(), () => fake.emit('notify', { title: 't', body: 'b', tag: 'x' }))).toEqual({ noticesList: 1 });
  });

  it('refetches the matrix, the sub-account and the alerts on a balance alert', async () => {
    const { fake, counts, after } = await setUp();
    const alert = {
      id: 1,
      uid: '1',
      kind: 'cross_risk',
      subject: '',
      value: '1.05',
      threshold: '1.5',
      raised_at: 1,
      cleared_at: null,
      acknowledged_at: null,
    };
    expect(await after(counts(), () => fake.emit('balanceAlert', alert as never))).toEqual({
      balancesMatrix: 1,
      balancesSubAccount: 1,
      balanceAlerts: 1,
    });
  });

  it('refetches the journal and its writes on a journal event', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('journal', {}))).toEqual({
      journalStatus: 1,
      intentsList: 1,
      journalEntries: 1,
      journalVerify: 1,
      journalAuditKeys: 1,
    });
  });

  it('writes the vault event into the cache without asking for it again', async () => {
    const { fake, counts, after } = await setUp();
    const delta = await after(counts(), () => fake.emit('vault', { ...OPEN_VAULT, locked: true }));
    expect(delta.vaultStatus).toBeUndefined();
    expect(screen.getByTestId('locked').textContent).toBe('true');
  });

  it('writes a saved setting from the answer and refetches nothing', async () => {
    const { counts, after } = await setUp();
    expect(await after(counts(), () => screen.getByRole('button', { name: 'save' }).click())).toEqual({});
    expect(screen.getByTestId('idle').textContent).toBe('42');
  });

  it('refetches figures once the Sandbox is back, not while it is down', async () => {
    const { fake, counts, after } = await setUp();
    expect(await after(counts(), () => fake.emit('sandbox', { state: 'down', at: 1 }))).toEqual({});
    expect(await after(counts(), () => fake.emit('sandbox', { state: 'restarted', at: 2 }))).toEqual({ totalBalance: 1, intentsList: 1 });
  });
});

/** A page that can be left and shown again, as the router does with a page the operator comes back to. */
function Remountable() {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown((v) => !v)}>
        toggle
      </button>
      {shown && <AllReads />}
    </>
  );
}

describe('query options: reads the events keep fresh are not asked again on a page mount', () => {
  it('refetches on a second mount only the reads no event keeps fresh', async () => {
    const fake = fakeDesk(baseAnswers());
    renderWithDesk(fake, <Remountable />);
    await waitFor(() => expect(screen.getByTestId('loaded').textContent).toBe('yes'));
    const before = Object.fromEntries(QUERY_CHANNELS.map((c) => [c, fake.count(c)]));
    await act(async () => screen.getByRole('button', { name: 'toggle' }).click());
    await act(async () => screen.getByRole('button', { name: 'toggle' }).click());
    await waitFor(() => expect(screen.getByTestId('loaded').textContent).toBe('yes'));
    const live = QUERY_CHANNELS.filter((c) => !KEPT_FRESH_BY_EVENTS.has(c));
    await waitFor(() => expect(live.filter((c) => fake.count(c) === before[c])).toEqual([]));
    const again = QUERY_CHANNELS.filter((c) => fake.count(c) !== before[c]);
    expect(again).toEqual(live);
    // The contract's list is not empty: the profile, the journal, the histories and the settings are among it.
    expect(again).not.toContain('withdrawalsList');
    expect(again).not.toContain('settingsGet');
    expect(again).toContain('totalBalance');
  });
});
