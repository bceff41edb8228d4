import type { z } from 'zod';
import { CancelledWithdrawal, listOf, SavedAddress, TotalBalance, WithdrawalChain, WithdrawalLimits } from '../../shared/api/records.ts';
import { isCancellableWithdrawalStatus } from '../../shared/api/statuses.ts';
import type { ChannelName, Channels, IntentCursor, IntentPage, IntentView, VaultStatus } from '../../shared/ipc.ts';
import type { ApiRequest } from './client/client.ts';
import type { DeskApprovals } from './approvals/deskApprovals.ts';
import { InputError, JournalDamagedWritesError } from './errors.ts';
import { governs } from './policy/engine.ts';
import type { ActiveSession, Session } from './session.ts';
import type { BalancesService } from './balances/service.ts';
import type { RebalanceService } from './rebalance/service.ts';
import type { SettingsStore } from './settings.ts';
import type { VaultPort } from './vaultPort.ts';
import type { HistoryService } from './history/service.ts';
import { historyHandlers } from './history/handlers.ts';
import { spotHandlers } from './orders/handlers.ts';
import { auditExport, auditKeys, auditPage, auditVerify, type AuditSources } from './journal/auditHandlers.ts';
import { payoutHandlers } from './payouts/handlers.ts';

export interface HandlerDeps {
  session: Session;
  settings: SettingsStore;
  vault: VaultPort | null;
  /** A request signed by the active profile's key, its answer checked against the record's schema. */
  call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>>;
  /** The active profile's cached histories (issue 10). */
  history: HistoryService;
  log?: (line: string) => void;
  /** The active profile's balances (sub-account matrix, alerts, snapshots). */
  balances(): BalancesService;
  /** Operators, policy, requests and approvals; null when the desk keeps no data folder (then it sends no writes). */
  approvals: DeskApprovals | null;
  /** Plans, templates and batches of rebalances; null without a data folder. */
  rebalance: RebalanceService | null;
}

type Parsed<C extends ChannelName> = z.output<Channels[C]['request']>;
/** What a handler returns is checked against the channel's response schema before it leaves the core. */
type Answer<C extends ChannelName> = z.input<Channels[C]['response']>;

export type Handlers = { [C in ChannelName]: (req: Parsed<C>, deps: HandlerDeps) => Promise<Answer<C>> };

const NO_VAULT: VaultStatus = {
  locked: false,
  backend: null,
  passphrase_set: false,
  keychain_note: 'This desk runs with a pinned profile and keeps no secrets.',
  unlock_wait_ms: 0,
};

/** How long writeApprove waits for the exchange's first answer before it answers with the state so far. */
const APPROVE_ANSWER_MS = 10_000;

function writesOf(session: Session): { writes: NonNullable<ActiveSession['writes']>; journal: NonNullable<ActiveSession['journal']> } {
  const s = session.active();
  if (s.damage) throw new JournalDamagedWritesError(s.damage);
  if (!s.writes || !s.journal) throw new InputError([], 'This desk runs without a journal, so it sends no writes.');
  return { writes: s.writes, journal: s.journal };
}

/** The executor refuses an operation on an intent in the wrong state with a plain Error: that is the operator's input. */
function asInput<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error && !(e instanceof InputError) && !(e instanceof JournalDamagedWritesError))
      throw new InputError(['id'], e.message);
    throw e;
  }
}

type Key = Pick<IntentView, 'created_at' | 'id'>;
/** Newest first, ties broken by id: the order the cursor walks. */
const newestFirst = (a: Key, b: Key): number => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** One page after `after` (exclusive), and the cursor of the page after it. */
export function intentPage(all: IntentView[], after: IntentCursor | undefined, limit: number): IntentPage {
  const sorted = all.sort(newestFirst);
  const rest = after ? sorted.filter((v) => newestFirst(v, after) > 0) : sorted;
  const items = rest.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rest.length > limit && last ? { created_at: last.created_at, id: last.id } : null };
}

function needApprovals(deps: HandlerDeps): DeskApprovals {
  if (!deps.approvals) throw new InputError([], 'This desk keeps no data folder, so it has no operators and sends no writes.');
  return deps.approvals;
}

function needRebalance(deps: HandlerDeps): RebalanceService {
  if (!deps.rebalance) throw new InputError([], 'This desk keeps no data folder, so it has no operators to approve a rebalance.');
  return deps.rebalance;
}

function auditSources(deps: HandlerDeps): AuditSources {
  const profile = deps.session.auditSource();
  if (!profile && !deps.approvals) throw new InputError([], 'This desk keeps no data folder, so it has no journal.');
  return { profile, governance: deps.approvals?.auditSource() ?? null };
}

function needVault(deps: HandlerDeps): VaultPort {
  if (!deps.vault) throw new InputError([], NO_VAULT.keychain_note!);
  return deps.vault;
}

export const handlers: Handlers = {
  profileCurrent: async (_req, { session }) => session.activeSummary(),
  profilesList: async (_req, { session }) => ({ active_id: session.activeId(), profiles: session.list() }),
  profileSave: async (req, { session }) => session.save(req),
  profileRemove: async (req, { session }) => {
    session.remove(req.id);
    return { removed: true as const };
  },
  profileSelect: async (req, { session }) => session.select(req.id),

  vaultStatus: async (_req, { vault }) => vault?.status() ?? NO_VAULT,
  vaultUnlock: async (req, deps) => {
    const vault = needVault(deps);
    await vault.unlock(req.passphrase);
    return vault.status();
  },
  vaultLock: async (_req, deps) => {
    const vault = needVault(deps);
    vault.lock();
    return vault.status();
  },
  vaultSetPassphrase: async (req, deps) => {
    const vault = needVault(deps);
    await vault.setPassphrase(req.current, req.next, req.leave_keychain === true);
    return vault.status();
  },

  userActive: async (_req, { vault }) => {
    vault?.touch();
    return { locked: vault?.isLocked() ?? false };
  },
  settingsGet: async (_req, { settings }) => settings.get(),
  settingsSave: async (req, { settings, vault }) => {
    vault?.setIdleMinutes(req.idle_lock_minutes);
    return settings.set(req);
  },

  writePrepare: async (req, { session }) => asInput(() => writesOf(session).writes.prepare(req.write, req.note)),
  writeApprove: async (req, deps) => {
    const { writes, journal } = writesOf(deps.session);
    const intent = journal.intent(req.id);
    if (intent) {
      // The old path is closed: a governed write is approved only by operators' signatures, given in the confirmation window.
      const { approvals, session } = needApprovals(deps).forActive();
      if (governs((await approvals.policyStatus(session.id)).policy, intent.kind)) {
        throw new InputError(
          ['id'],
          `The approval policy governs ${intent.kind.replace(/_/g, ' ')}s: draft it on the Approvals page and approve it in the confirmation window. Nothing was sent.`,
        );
      }
      const hold = await needApprovals(deps).holdReason();
      if (hold) throw new InputError(['id'], `Nothing is sent: ${hold}.`);
    }
    const driving = asInput(() => writes.approve(req.id, 'operator'));
    // A write whose answer is slow or ambiguous keeps going in the core; its progress arrives as events.
    const early = new Promise<null>((r) => setTimeout(() => r(null), APPROVE_ANSWER_MS).unref?.());
    return (await Promise.race([driving, early])) ?? journal.intent(req.id)!;
  },
  writeCancel: async (req, { session }) => asInput(() => writesOf(session).writes.cancel(req.id, req.reason)),
  writeSettle: async (req, { session }) => asInput(() => writesOf(session).writes.settle(req.id, 'operator', req.outcome, req.note)),
  intentsList: async (req, { session }) => {
    const { journal } = writesOf(session);
    return intentPage(req.unfinished_only ? journal.unfinished() : journal.intents(), req.after, req.limit);
  },

  journalStatus: async (_req, { session }) => session.journalState(),
  journalAcknowledgeRecovery: async (_req, { session }) => session.acknowledgeRecovery(),
  journalArchive: async (_req, { session }) => session.archiveDamagedJournal(),
  journalEntries: async (req, deps) => auditPage(auditSources(deps), req),
  journalVerify: async (_req, deps) => auditVerify(auditSources(deps)),
  journalExport: async (req, deps) => auditExport(auditSources(deps), req.format, new Date()),
  journalAuditKeys: async (_req, deps) => auditKeys(auditSources(deps)),
  ...payoutHandlers,

  totalBalance: async (req, { call, balances }) => {
    const total = await call({ method: 'GET', path: '/wallet/total_balance', query: [['currency', req.currency]] }, TotalBalance);
    balances().recordTotal(req.currency, total.total.amount);
    return total;
  },

  balancesMain: async (req, { balances }) => balances().main(req.quote),
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

  ...historyHandlers,
  ...spotHandlers,

  approvalsState: async (_req, deps) => needApprovals(deps).state(),
  batchStatus: async (req, deps) => {
    const status = await needApprovals(deps).batchStatus(req.ref);
    if (!status) return null;
    const journal = deps.session.active().journal;
    return { ...status, intents: status.payload.rows.map((r) => journal?.intent(r.ref) ?? null) };
  },
  approvalsReview: async (req, deps) => needApprovals(deps).review(req.write),
  approvalsDraft: async (req, deps) => needApprovals(deps).draft(req.write, req.note),
  approvalsDecide: async (req, deps) => needApprovals(deps).ticketFor((a) => a.decisionTicket(req.ref, req.action, req.reason)),
  approvalsProposePolicy: async (req, deps) => {
    const a = needApprovals(deps);
    return a.ticketFor((x) => x.policyTicket(a.forActive().session.id, req.policy));
  },
  approvalsRemoveOperator: async (req, deps) => needApprovals(deps).ticketFor((a) => a.removeOperatorTicket(req.id)),
  approvalsFreeze: async (req, deps) => needApprovals(deps).ticketFor((a) => a.freezeTicket(req.reason)),
  approvalsUnfreeze: async (_req, deps) => needApprovals(deps).ticketFor((a) => a.unfreezeTicket()),
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
  addressBookList: async (_req, deps) => needApprovals(deps).book.withReadiness(),
  addressBookAdd: async (req, deps) => needApprovals(deps).addressBookTicket(req),
  rebalanceScope: async (req, deps) => needRebalance(deps).scope(req.currency),
  rebalancePlan: async (req, deps) => needRebalance(deps).plan(req),
  rebalanceTemplates: async (_req, deps) => needRebalance(deps).listTemplates(),
  rebalanceTemplateSave: async (req, deps) => needRebalance(deps).saveTemplate(req),
  rebalanceTemplateDelete: async (req, deps) => needRebalance(deps).deleteTemplate(req.name),
  rebalanceDraft: async (req, deps) => needRebalance(deps).draft(req.plan),
  rebalanceBatches: async (_req, deps) => needRebalance(deps).list(),
  rebalanceCancel: async (req, deps) => needRebalance(deps).cancel(req.ref, req.reason),
  rebalanceResume: async (req, deps) => needRebalance(deps).resume(req.ref),
  rebalanceReport: async (req, deps) => needRebalance(deps).report(req.ref),
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
