import { isCancellableWithdrawalStatus } from '../../../shared/api/statuses.ts';
import type { HistoryKind } from '../../../shared/history.ts';
import { CancelledWithdrawal, DepositAddress as DepositAddressRecord } from '../../../shared/api/records.ts';
import { HistoryPageRequest } from '../../../shared/history.ts';
import { HISTORY_LISTS } from '../../../shared/ipcNames.ts';
import type { z } from 'zod';
import type { Handlers, HandlerDeps } from '../handlerDeps.ts';
import { InputError } from '../errors.ts';
import { RecordError } from '../cache/historyDb.ts';
import { exportCsv } from './csv.ts';
import { withdrawalIntent } from './outflows.ts';
import { toRow, toUnsent } from './rows.ts';

type HistoryChannels =
  | 'withdrawalsList'
  | 'depositsList'
  | 'transfersList'
  | 'uidTransfersList'
  | 'withdrawalsSentUnlisted'
  | 'withdrawalDetail'
  | 'historyExport'
  | 'historyStatus'
  | 'historySync'
  | 'unsentList'
  | 'unsentAcknowledge'
  | 'withdrawalCancel'
  | 'depositAddress';

function historyOf(deps: HandlerDeps) {
  return deps.history.of(deps.session.active());
}

function list<K extends HistoryKind>(kind: K) {
  return async (req: z.output<typeof HistoryPageRequest>, deps: HandlerDeps) => {
    const h = historyOf(deps);
    if (req.cursor !== undefined && req.offset !== undefined) throw new InputError(['offset'], 'give a cursor or an offset, not both');
    try {
      const page = h.db.page(kind, req.filters, req.sort, req.limit, req.cursor, req.offset);
      return { total: page.total, next_cursor: page.next_cursor, rows: page.rows.map((r) => toRow(kind, r)) };
    } catch (e) {
      if (e instanceof RecordError) throw new InputError(['cursor'], e.message);
      throw e;
    }
  };
}

/**
 * Channels whose answers are built only by the typed row mapper (historyDb.ts toStored, rows.ts toRow)
 * from the core's own SQLite: the core does not check them against their zod schema again on the way
 * out (a 100-row page cost the first list read of a new process tens of ms there; docs/performance.md §Long lists).
 */
export const MAPPED_ANSWERS: ReadonlySet<string> = new Set<HistoryChannels>(HISTORY_LISTS);

/** The withdrawal list's ids begin with "w"; DELETE takes the id either way (§4.2, §2.3). */
const withW = (id: string) => (id.startsWith('w') ? id : `w${id}`);

/** A write's states once it was put on the wire: its record may be at the exchange. */
const SENT: ReadonlySet<string> = new Set(['in_flight', 'unconfirmed', 'accepted', 'done', 'needs_attention', 'settled']);
/** The most the Withdrawals page shows of them: more means the history is not being read at all. */
const SENT_UNLISTED_SHOWN = 50;

export const historyHandlers: Pick<Handlers, HistoryChannels> = {
  withdrawalsList: list('withdrawals'),
  depositsList: list('deposits'),
  transfersList: list('transfers'),
  uidTransfersList: list('uid_transfers'),

  withdrawalsSentUnlisted: async (_req, deps) => {
    const sent = (deps.session.active().journal?.intents() ?? []).filter(
      (i) => i.kind === 'withdrawal' && i.attempts > 0 && SENT.has(i.state) && i.client_id,
    );
    const listed = historyOf(deps).db.listedOrderIds(sent.map((i) => i.client_id!));
    const items = sent.filter((i) => !listed.has(i.client_id!)).sort((a, b) => b.created_at - a.created_at);
    return { items: items.slice(0, SENT_UNLISTED_SHOWN) };
  },

  withdrawalDetail: async (req, deps) => {
    const h = historyOf(deps);
    const row = h.db.get('withdrawals', withW(req.id));
    if (!row) throw new InputError(['id'], `withdrawal ${req.id} is not in this desk's cache`);
    const intents = deps.session.active().journal?.intents() ?? [];
    return {
      record: toRow('withdrawals', row),
      timeline: h.db.timeline('withdrawals', row.key),
      intent: withdrawalIntent(row.wire, intents),
      cancellable: isCancellableWithdrawalStatus(row.wire.status ?? ''),
    };
  },

  historyExport: async (req, deps) => {
    const { csv, rows } = exportCsv(historyOf(deps).db, req.kind, req.query);
    return { filename: `${req.kind}-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`, rows, csv };
  },

  historyStatus: async (_req, deps) => historyOf(deps).status(),
  historySync: async (_req, deps) => {
    const h = historyOf(deps);
    await h.syncNow();
    return h.status();
  },

  unsentList: async (req, deps) =>
    historyOf(deps)
      .db.flagged(req.include_acknowledged)
      .filter(
        (f): f is { kind: 'withdrawals' | 'uid_transfers'; row: typeof f.row } => f.kind === 'withdrawals' || f.kind === 'uid_transfers',
      )
      .map((f) => toUnsent(f.kind, f.row))
      .sort((a, b) => (a.flag.state === b.flag.state ? 0 : a.flag.state === 'flagged' ? -1 : 1)),

  unsentAcknowledge: async (req, deps) => {
    const h = historyOf(deps);
    if (!h.db.acknowledge(req.kind, req.id, req.note)) throw new InputError(['id'], `${req.id} is not an unacknowledged outflow`);
    deps.log?.(`[core] outflow ${req.kind} ${req.id} acknowledged: ${req.note}`);
    h.changedCounts();
    return toUnsent(req.kind, h.db.get(req.kind, req.id)!);
  },

  withdrawalCancel: async (req, deps) => {
    const id = withW(req.id);
    const answer = await deps.call({ method: 'DELETE', path: `/withdrawals/${id}`, priority: 'action' }, CancelledWithdrawal);
    const h = historyOf(deps);
    // The 202 answer is the record in its new status (CANCELPEND): kept and followed like any other.
    if (answer && typeof answer === 'object' && typeof answer.status === 'string') {
      const old = h.db.get('withdrawals', id);
      const merged = { ...(old?.wire ?? {}), ...answer, id };
      h.apply('withdrawals', [merged]);
    }
    return { id, status: String(answer?.status ?? ''), http_status: 202 as const };
  },

  depositAddress: async (req, { call }) =>
    call({ method: 'GET', path: '/wallet/deposit_address', query: [['currency', req.currency.toUpperCase()]] }, DepositAddressRecord),
};
