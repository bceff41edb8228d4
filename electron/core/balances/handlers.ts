import { TotalBalance } from '../../../shared/api/records.ts';
import { InputError } from '../errors.ts';
import type { Handlers } from '../handlerDeps.ts';

type BalanceChannels =
  | 'totalBalance'
  | 'balancesMain'
  | 'lastKnown'
  | 'balancesSnapshots'
  | 'balancesMatrix'
  | 'balancesRefresh'
  | 'balancesExport'
  | 'balancesSubAccount'
  | 'balancesSettingsGet'
  | 'balancesSettingsSave'
  | 'balancesSetThreshold'
  | 'balancesSetFloor'
  | 'balanceAlerts'
  | 'balanceAlertAcknowledge';

export const balanceHandlers: Pick<Handlers, BalanceChannels> = {
  totalBalance: async (req, { call, balances }) => {
    const total = await call({ method: 'GET', path: '/wallet/total_balance', query: [['currency', req.currency]] }, TotalBalance);
    balances().recordTotal(req.currency, total.total.amount);
    balances().remember('totalBalance', req, total);
    return total;
  },

  balancesMain: async (req, { balances }) => {
    const main = await balances().main(req.quote);
    balances().remember('balancesMain', req, main);
    return main;
  },
  lastKnown: async (req, { balances }) => balances().lastKnown(req.channel, req.request),
  balancesSnapshots: async (req, { balances }) => balances().snapshots(req.currency, req.since),
  balancesMatrix: async (req, { balances }) => balances().matrix(req),
  balancesRefresh: async (_req, { balances }) => balances().refresh('action'),
  balancesExport: async (req, { balances }) => balances().exportCsv(req),
  balancesSubAccount: async (req, { balances }) => balances().detail(req.uid, req.quote),
  balancesSettingsGet: async (_req, { balances }) => balances().settings(),
  balancesSettingsSave: async (req, { balances }) => balances().saveSettings(req),
  balancesSetThreshold: async (req, { balances }) => balances().setThreshold(req.uid, req.risk_threshold),
  balancesSetFloor: async (req, { balances }) => balances().setFloor(req.uid, req.currency, req.floor),
  balanceAlerts: async (_req, { balances }) => balances().alerts(),
  balanceAlertAcknowledge: async (req, { balances }) => {
    const a = balances().acknowledge(req.id);
    if (!a) throw new InputError(['id'], `there is no alert ${req.id}`);
    return a;
  },
};
