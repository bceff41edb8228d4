import type { z } from 'zod';
import type { ChannelName, Channels, VaultStatus } from '../../shared/ipc.ts';
import type { ApiRequest } from './client/client.ts';
import type { DeskApprovals } from './approvals/deskApprovals.ts';
import { governs } from './policy/engine.ts';
import { InputError } from './profiles/store.ts';
import { JournalDamagedWritesError, type ActiveSession, type Sessions } from './session.ts';
import type { SettingsStore } from './settings.ts';
import type { VaultPort } from './vaultPort.ts';

export interface HandlerDeps {
  sessions: Sessions;
  settings: SettingsStore;
  vault: VaultPort | null;
  /** Operators, policy, requests and approvals; null when the desk keeps no data folder (then it sends no writes). */
  approvals: DeskApprovals | null;
  /** A request signed by the active profile's key. */
  call<T>(req: ApiRequest): Promise<T>;
}

type Parsed<C extends ChannelName> = z.output<Channels[C]['request']>;
/** What a handler returns is checked against the channel's response schema before it leaves the core. */
type Answer<C extends ChannelName> = z.input<Channels[C]['response']>;

export type Handlers = { [C in ChannelName]: (req: Parsed<C>, deps: HandlerDeps) => Promise<Answer<C>> };

const NO_VAULT: VaultStatus = { locked: false, backend: null, passphrase_set: false, keychain_note: 'This desk runs with a pinned profile and keeps no secrets.' };

/**
 * §3.1 gives no list of statuses a withdrawal can be cancelled in (only INVALID_WITHDRAW_CANCEL_STATUS
 * otherwise). The desk's assumption: before it leaves for the chain. The exchange has the last word.
 */
const CANCELLABLE = new Set(['REQUEST', 'REVIEW', 'MANUAL', 'FVERIFY', 'VERIFY', 'PEND', 'PROCES', 'DMOVE', 'BCODE', 'LOCKED']);

/** How long writeApprove waits for the exchange's first answer before it answers with the state so far. */
const APPROVE_ANSWER_MS = 10_000;

function writesOf(sessions: Sessions): { writes: NonNullable<ActiveSession['writes']>; journal: NonNullable<ActiveSession['journal']> } {
  const s = sessions.active();
  if (s.damage) throw new JournalDamagedWritesError(s.damage);
  if (!s.writes || !s.journal) throw new InputError([], 'This desk runs without a journal, so it sends no writes.');
  return { writes: s.writes, journal: s.journal };
}

/** The executor refuses an operation on an intent in the wrong state with a plain Error: that is the operator's input. */
function asInput<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error && !(e instanceof InputError) && !(e instanceof JournalDamagedWritesError)) throw new InputError(['id'], e.message);
    throw e;
  }
}

function needApprovals(deps: HandlerDeps): DeskApprovals {
  if (!deps.approvals) throw new InputError([], 'This desk keeps no data folder, so it has no operators and sends no writes.');
  return deps.approvals;
}

function needVault(deps: HandlerDeps): VaultPort {
  if (!deps.vault) throw new InputError([], NO_VAULT.keychain_note!);
  return deps.vault;
}

export const handlers: Handlers = {
  profileCurrent: async (_req, { sessions }) => sessions.activeSummary(),
  profilesList: async (_req, { sessions }) => ({ active_id: sessions.activeId(), profiles: sessions.list() }),
  profileSave: async (req, { sessions }) => sessions.save(req),
  profileRemove: async (req, { sessions }) => {
    sessions.remove(req.id);
    return { removed: true as const };
  },
  profileSelect: async (req, { sessions }) => sessions.select(req.id),

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
    await vault.setPassphrase(req.current, req.next);
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

  writePrepare: async (req, { sessions }) => asInput(() => writesOf(sessions).writes.prepare(req.write, req.note)),
  writeApprove: async (req, deps) => {
    const { writes, journal } = writesOf(deps.sessions);
    const intent = journal.intent(req.id);
    if (intent) {
      // The old path is closed: a governed write is approved only by operators' signatures, given in the confirmation window.
      const { approvals, session } = needApprovals(deps).forActive();
      if (governs((await approvals.policyStatus(session.id)).policy, intent.kind)) {
        throw new InputError(['id'], `The approval policy governs ${intent.kind.replace(/_/g, ' ')}s: draft it on the Approvals page and approve it in the confirmation window. Nothing was sent.`);
      }
      const hold = await needApprovals(deps).holdReason();
      if (hold) throw new InputError(['id'], `Nothing is sent: ${hold}.`);
    }
    const driving = asInput(() => writes.approve(req.id, 'operator'));
    // A write whose answer is slow or ambiguous keeps going in the core; its progress arrives as events.
    const early = new Promise<null>((r) => setTimeout(() => r(null), APPROVE_ANSWER_MS).unref?.());
    return (await Promise.race([driving, early])) ?? journal.intent(req.id)!;
  },
  writeCancel: async (req, { sessions }) => asInput(() => writesOf(sessions).writes.cancel(req.id, req.reason)),
  writeSettle: async (req, { sessions }) => asInput(() => writesOf(sessions).writes.settle(req.id, 'operator', req.outcome, req.note)),
  intentsList: async (req, { sessions }) => {
    const { journal } = writesOf(sessions);
    return (req.unfinished_only ? journal.unfinished() : journal.intents()).sort((a, b) => b.created_at - a.created_at);
  },

  journalStatus: async (_req, { sessions }) => sessions.journalState(),
  journalAcknowledgeRecovery: async (_req, { sessions }) => sessions.acknowledgeRecovery(),
  journalArchive: async (_req, { sessions }) => sessions.archiveDamagedJournal(),

  approvalsState: async (_req, deps) => needApprovals(deps).state(),
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
  withdrawalsCancellable: async (_req, { sessions }) => {
    const { journal, writes } = writesOf(sessions);
    // Offer what is cancellable now, not what was when the last status poll ran.
    await writes.pollStatuses().catch(() => {});
    return journal.unfinished('withdrawal')
      .filter((v) => v.state === 'accepted' && v.exchange_id !== undefined && CANCELLABLE.has(v.status ?? ''))
      .map((v) => ({ intent: v.id, exchange_id: v.exchange_id!, currency: String(v.body.currency), amount: String(v.body.amount), address: String(v.body.address), status: v.status! }));
  },
  withdrawalsCancel: async (req, { call }) => {
    const out = [];
    for (const id of req.exchange_ids) {
      try {
        await call({ method: 'DELETE', path: `/withdrawals/${encodeURIComponent(id)}`, priority: 'action' });
        out.push({ exchange_id: id, ok: true, message: 'cancellation asked; the status is watched until it is final' });
      } catch (e) {
        out.push({ exchange_id: id, ok: false, message: (e as Error).message });
      }
    }
    return out;
  },
  addressBookList: async (_req, deps) => needApprovals(deps).book.withReadiness(),
  addressBookAdd: async (req, deps) => needApprovals(deps).book.add(req),
  walletCurrencyChains: async (req, { call }) => call({ method: 'GET', path: '/wallet/currency_chains', query: [['currency', req.currency]] }),
  walletWithdrawStatus: async (req, { call }) => call({ method: 'GET', path: '/wallet/withdraw_status', query: req.currency ? [['currency', req.currency]] : [] }),
  walletSavedAddresses: async (req, { call }) => call({ method: 'GET', path: '/wallet/saved_address', query: [['currency', req.currency], ['limit', '100']] }),
  totalBalance: async (req, { call }) =>
    call({ method: 'GET', path: '/wallet/total_balance', query: [['currency', req.currency]] }),
};
