import { z } from 'zod';
import {
  AlertView,
  BalanceSettings,
  FloorInput,
  LoadStatus,
  MainBalances,
  MatrixPage,
  MatrixQuery,
  QuoteCurrency,
  Snapshot,
  SubAccountDetail,
  ThresholdInput,
} from '../balances.ts';
import { CsvExport } from '../csvExport.ts';
import { TotalBalance, VALUATION_CURRENCIES } from '../api/records.ts';

// Balances: the total, the main account, the sub-account matrix, snapshots, thresholds and alerts.

const TotalBalanceRequest = z.object({ currency: z.enum(VALUATION_CURRENCIES).default('USDT') }).strict();
const MainBalancesRequest = z.object({ quote: QuoteCurrency.default('USDT') }).strict();

export const balancesChannels = {
  totalBalance: {
    request: TotalBalanceRequest,
    response: TotalBalance,
  },
  /** The main account's own spot, isolated margin, futures (per settle) and cross margin accounts, read fresh. */
  balancesMain: {
    request: MainBalancesRequest,
    response: MainBalances,
  },
  /**
   * The last answer a read of the exchange gave this profile, kept in the desk's cache with its time: the
   * window paints it at once (marked with its age) while the read asks the exchange again. Null when the
   * read never answered here. Figures to look at, never to act on: nothing that moves money reads them.
   */
  lastKnown: {
    request: z.discriminatedUnion('channel', [
      z.object({ channel: z.literal('totalBalance'), request: TotalBalanceRequest }).strict(),
      z.object({ channel: z.literal('balancesMain'), request: MainBalancesRequest }).strict(),
    ]),
    response: z
      .object({ at: z.number().int().nonnegative(), data: z.union([TotalBalance, MainBalances]) })
      .strict()
      .nullable(),
  },
  /** Snapshots of the §2.9 total the desk keeps at each fetch, oldest first. */
  balancesSnapshots: {
    request: z
      .object({ currency: z.enum(VALUATION_CURRENCIES).default('USDT'), since: z.number().int().nonnegative().default(0) })
      .strict(),
    response: z.array(Snapshot),
  },
  /** One page of the sub-account matrix; with nothing loaded it starts the load (progress as balancesProgress events). */
  balancesMatrix: {
    request: MatrixQuery,
    response: MatrixPage,
  },
  /** Loads every sub-account's balances again; answers when the load has ended. */
  balancesRefresh: {
    request: z.object({}).strict(),
    response: LoadStatus,
  },
  /** The whole filtered matrix as CSV text. */
  balancesExport: {
    request: MatrixQuery,
    response: CsvExport,
  },
  /** Every §2.8 record of one sub-account, its alert settings and its alerts. */
  balancesSubAccount: {
    request: z
      .object({ uid: z.string().regex(/^\d{1,20}$/, 'a sub-account uid is digits'), quote: QuoteCurrency.default('USDT') })
      .strict(),
    response: SubAccountDetail,
  },
  balancesSettingsGet: {
    request: z.object({}).strict(),
    response: BalanceSettings,
  },
  balancesSettingsSave: {
    request: BalanceSettings,
    response: BalanceSettings,
  },
  /** A sub-account's own risk threshold; null goes back to the default. */
  balancesSetThreshold: {
    request: ThresholdInput,
    response: SubAccountDetail,
  },
  /** A low-balance floor for one sub-account and currency; null removes it. */
  balancesSetFloor: {
    request: FloorInput,
    response: SubAccountDetail,
  },
  /** Alerts standing or not yet acknowledged. */
  balanceAlerts: {
    request: z.object({}).strict(),
    response: z.array(AlertView),
  },
  balanceAlertAcknowledge: {
    request: z.object({ id: z.number().int().positive() }).strict(),
    response: AlertView,
  },
} as const;
