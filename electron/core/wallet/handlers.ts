import { CancelledWithdrawal, listOf, SavedAddress, WithdrawalChain, WithdrawalLimits } from '../../../shared/api/records.ts';
import { isCancellableWithdrawalStatus } from '../../../shared/api/statuses.ts';
import type { Handlers } from '../handlerDeps.ts';
import { writesOf } from '../handlerGuards.ts';

type WalletChannels =
  'withdrawalsCancellable' | 'withdrawalsCancel' | 'walletCurrencyChains' | 'walletWithdrawStatus' | 'walletSavedAddresses';

export const walletHandlers: Pick<Handlers, WalletChannels> = {
  withdrawalsCancellable: async (_req, { session }) => {
    const { journal, writes } = writesOf(session);
    // Offer what is cancellable now, not what was when the last status poll ran.
    await writes.pollStatuses().catch(() => {});
    return journal
      .unfinished('withdrawal')
      .filter((v) => v.state === 'accepted' && v.exchange_id !== undefined && isCancellableWithdrawalStatus(v.status ?? ''))
      .map((v) => ({
        intent: v.id,
        exchange_id: v.exchange_id!,
        currency: String(v.body.currency),
        amount: String(v.body.amount),
        address: String(v.body.address),
        status: v.status!,
      }));
  },
  withdrawalsCancel: async (req, { call }) => {
    const out = [];
    for (const id of req.exchange_ids) {
      try {
        await call({ method: 'DELETE', path: `/withdrawals/${encodeURIComponent(id)}`, priority: 'action' }, CancelledWithdrawal);
        out.push({ exchange_id: id, ok: true, message: 'cancellation asked; the status is watched until it is final' });
      } catch (e) {
        out.push({ exchange_id: id, ok: false, message: (e as Error).message });
      }
    }
    return out;
  },
  walletCurrencyChains: async (req, { call }) =>
    call({ method: 'GET', path: '/wallet/currency_chains', query: [['currency', req.currency]] }, listOf(WithdrawalChain)),
  walletWithdrawStatus: async (req, { call }) =>
    call(
      { method: 'GET', path: '/wallet/withdraw_status', query: req.currency ? [['currency', req.currency]] : [] },
      listOf(WithdrawalLimits),
    ),
  walletSavedAddresses: async (req, { call }) =>
    call(
      {
        method: 'GET',
        path: '/wallet/saved_address',
        query: [
          ['currency', req.currency],
          ['limit', '100'],
        ],
      },
      listOf(SavedAddress),
    ),
};
