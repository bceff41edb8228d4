import type { Handlers } from './handlerDeps.ts';
import { approvalHandlers } from './approvals/handlers.ts';
import { balanceHandlers } from './balances/handlers.ts';
import { historyHandlers } from './history/handlers.ts';
import { journalHandlers } from './journal/handlers.ts';
import { spotHandlers } from './orders/handlers.ts';
import { payoutHandlers } from './payouts/handlers.ts';
import { profileHandlers } from './profiles/handlers.ts';
import { rebalanceHandlers } from './rebalance/handlers.ts';
import { subAccountHandlers } from './subaccounts/handlers.ts';
import { vaultHandlers } from './vault/handlers.ts';
import { walletHandlers } from './wallet/handlers.ts';
import { writeHandlers } from './writes/handlers.ts';
import { dustHandlers } from './smallBalance/handlers.ts';
import { teamHandlers } from './team/handlers.ts';
import { statementHandlers } from './statements/handlers.ts';

export type { HandlerDeps, Handlers } from './handlerDeps.ts';

// The one merge point: each domain answers its own channels in its own handlers.ts, and the type
// `Handlers` proves here that every channel of the contract has exactly one answer.
export const handlers: Handlers = {
  unreadRecords: async (_req, { unread }) => unread.view(),
  noticesList: async (_req, { notices }) => notices.view(),
  noticesRead: async (req, { notices }) => notices.read(req.ids),
  deskStatus: async (_req, { status }) => status(),
  windowPainted: async (_req, { windowPainted }) => {
    windowPainted();
    return {};
  },
  ...profileHandlers,
  ...vaultHandlers,
  ...writeHandlers,
  ...journalHandlers,
  ...payoutHandlers,
  ...balanceHandlers,
  ...historyHandlers,
  ...statementHandlers,
  ...spotHandlers,
  ...approvalHandlers,
  ...walletHandlers,
  ...rebalanceHandlers,
  ...dustHandlers,
  ...subAccountHandlers,
  ...teamHandlers,
};
