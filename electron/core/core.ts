import { join } from 'node:path';
import type { z } from 'zod';
import type { Role } from '../../shared/api/roles.ts';
import {
  channels,
  events,
  isChannelName,
  type ChannelName,
  type EventName,
  type EventPayload,
  type IntentView,
  type Reply,
} from '../../shared/ipc.ts';
import type { ApiRequest } from './client/client.ts';
import { LinkMonitor } from './client/link.ts';
import { rateLimitEvent } from './client/rateLimitEvent.ts';
import type { BucketState } from './client/scheduler.ts';
import { logLine, refusedRequest, toErrorBody } from './errorBody.ts';
import { AuditorProfileError, InputError, LockedError, NoProfileError } from './errors.ts';
import { AUDITOR_CHANNELS, AUDITOR_CONFIRM_CHANNELS } from './profiles/auditor.ts';
import { BalancesService } from './balances/service.ts';
import { BalanceStore } from './balances/store.ts';
import { handlers } from './handlers.ts';
import type { HandlerDeps } from './handlerDeps.ts';
import { DeskApprovals } from './approvals/deskApprovals.ts';
import { TeamWiring, type TeamConfig } from './team/wiring.ts';
import { SANDBOX_COOLING_OFF_MS } from './governance/state.ts';
import { confirmChannels, isConfirmChannel, type ConfirmChannelName } from '../../shared/confirm.ts';
import { alertSentence } from '../../shared/risk.ts';
import { MONEY_MOVED_STATES } from '../../shared/ipcStale.ts';
import type { WriteKind } from '../../shared/api/policy.ts';
import type { Profile } from './profiles/profile.ts';
import { ProfileStore } from './profiles/store.ts';
import { checkedStateDir } from './paths.ts';
import { Session } from './session.ts';
import { SettingsStore } from './settings.ts';
import { HistoryService } from './history/service.ts';
import { MAPPED_ANSWERS } from './history/handlers.ts';
import { RebalanceService } from './rebalance/service.ts';
import { SubAccountsService } from './subaccounts/service.ts';
import { NoticeBoard } from './notices.ts';
import { BatchArchive } from './store/batchArchive.ts';
import { payoutFinishWatcher } from './payouts/finished.ts';
import { serviceOf } from './payouts/handlers.ts';
import { UnreadRegistry } from './unread.ts';
import { BEFORE_START_UP, StartUp } from './startUp.ts';
import { WindowFirst } from './client/windowFirst.ts';
import type { VaultPort } from './vaultPort.ts';

/**
 * Answers built only by typed code from what the core checked when it came in, which the core does not
 * check against their channel's schema again on the way out: the history lists (their row mapper reads
 * the core's SQLite) and the Sub-accounts matrix (valued from a load whose every answer the client
 * checked, or from a kept load that lastLoad.ts parsed again). A 100-row matrix block cost 18 ms to
 * check in a new process, and 3 to 12 after, on the path of the window's first paint (docs/performance.md §Opening the desk); the
 * tests hold these answers to their schema instead (listAnswer.sandbox.test.ts, cached.sandbox.test.ts).
 */
const BUILT_ANSWERS: ReadonlySet<string> = new Set<string>([...MAPPED_ANSWERS, 'balancesMatrix' satisfies ChannelName]);

/** The platform-free core: hosts hand it a channel name and an untrusted payload; it answers a Reply. */
export interface Core {
  invoke(channel: string, payload: unknown): Promise<Reply<unknown>>;
  /** Stops background work (status polling, writes in progress wait as journaled) and closes files. */
  close(): Promise<void>;
  /** Core events for the renderer; hosts forward them. Returns the function that unsubscribes. */
  subscribe(listener: EventListener): () => void;
  /** The host's supervisor saw the Sandbox stop or come back (same port, same data): told to the window. */
  reportSandbox?(state: 'down' | 'restarted'): void;
}

/** What only the confirmation window's host reaches; the main window's host gets a Core without it. */
export interface ConfirmCore {
  /**
   * The confirmation window's channels (shared/confirm.ts): hosts route these only from the confirmation
   * page, never from the main window. Here operators type passphrases and sign.
   */
  invokeConfirm(channel: string, payload: unknown): Promise<Reply<unknown>>;
  /** Something waits for, or changed in, the confirmation window. */
  subscribeConfirm(listener: () => void): () => void;
}

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface CoreOptions {
  /** The built-in profile: the Sandbox's, or one pinned by a test or benchmark. */
  profile?: Profile;
  /**
   * The desk's own Sandbox's credentials.json: its admin API makes the key of an invitation to rehearse on
   * it (team/rehearsal.ts). Without it the desk joins other desks' rehearsals but invites none.
   */
  sandboxCredentialsPath?: string;
  /** The desk's data folder; without it nothing is stored (pinned-profile mode). */
  dataDir?: string;
  /** Required with dataDir: where secrets of stored profiles are kept. */
  vault?: VaultPort;
  /**
   * The host's state directory, OUTSIDE dataDir: where each journal's anchor is kept, so that a restore
   * of the data folder cannot take the journals back in time unnoticed (journal/anchor.ts).
   */
  stateDir?: string;
  log?: (line: string) => void;
  /** Pace of the history loops (tests and benchmarks). */
  history?: { syncEveryMs?: number; tickMs?: number; checkMaxMs?: number };
  /** How long an approved operator or policy change waits before it takes effect (24 h by default). */
  coolingOffMs?: number;
  now?: () => number;
  /**
   * A team's shared governance store on PostgreSQL for one domain (team/wiring.ts), with its password and
   * the founding record's link to pin; the desk otherwise uses the one joined from Settings.
   */
  team?: TeamConfig;
  /** A write attempt's timeout and the settle window after it (writes/doubt.ts); tests shorten both. */
  writes?: { requestTimeoutMs?: number; settleMs?: number };
  /**
   * The hosts' start (openDesk): the start-up work waits until the window's first reads are answered
   * (startUp.ts); without it the core runs it as it is made.
   */
  deferStartUp?: boolean;
}

/** At most one call per `ms`, always with the latest arguments: the picture, not every frame of it. */
function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let last: A | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return (...args: A) => {
    last = args;
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn(...last!);
    }, ms);
    timer.unref?.();
  };
}

/** Writes that move a sub-account's money: the sub-accounts' figures of the last balances load are stale after them. */
const SUB_ACCOUNT_MOVES: ReadonlySet<string> = new Set<WriteKind>(['main_sub_transfer', 'sub_to_sub_transfer', 'sub_own_transfer']);

export function createCore(opts: CoreOptions): Core & ConfirmCore {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const listeners = new Set<EventListener>();
  /** Every event is checked against its schema before it leaves, like every answer. */
  function emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = events[event].parse(payload) as EventPayload<E>;
    if (event === 'notify') notices.add(checked as EventPayload<'notify'>);
    for (const l of listeners) l(event, checked);
  }

  const vault = opts.dataDir ? (opts.vault ?? null) : null;
  const unread = new UnreadRegistry((view) => emit('unreadRecords', view));
  const notices = new NoticeBoard();
  const archive = opts.dataDir ? new BatchArchive(join(opts.dataDir, 'batches', 'archived.json')) : null;
  // An answer a second is news enough for an age shown in seconds; the latest one is always told.
  const link = new LinkMonitor(throttle((state) => emit('link', state), 1000));
  const anchorDir = opts.dataDir && opts.stateDir ? checkedStateDir(opts.dataDir, opts.stateDir) : undefined;
  // Made first: the history, the session and the balances ask it when their background work may begin.
  // Its work is set once all of them exist (below); it runs at a call, at its timer, or at once without a host.
  let startWork = (): void => {};
  const startUp = new StartUp(() => startWork(), log);
  // Every call through `run` is the operator's window at work: the history's background requests wait
  // while it asks (client/windowFirst.ts).
  const windowFirst = new WindowFirst();
  const history = new HistoryService({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    log,
    events: { changed: (e) => emit('history', e), notify: (n) => emit('notify', n) },
    // Its first sync checks a thousand records a page in this process: not while a window draws (startUp.ts).
    firstSyncAfter: () => startUp.firstPaint(),
    ...(opts.history ?? {}),
  });
  const settings = new SettingsStore(opts.dataDir);
  const confirmListeners = new Set<() => void>();
  let approvals: DeskApprovals | null = null;
  /** Which team store each governance domain uses; built here and handed to the approvals, which never import team/. */
  let team: TeamWiring | null = null;
  let rebalance: RebalanceService | null = null;
  let subAccounts: SubAccountsService | null = null;
  /** Told once when the last row of an approved payout batch ends (payouts/finished.ts); set once the handlers' deps exist. */
  let payoutRowEnded: (v: IntentView) => void = () => {};
  /** Reads the active profile's sub-account balances again after a move of theirs; set once the balance services exist. */
  let balancesMoved: () => void = () => {};
  const session = new Session({
    builtIn: opts.profile,
    // The reconciliation's reads are checked record by record here: after the window's first paint (startUp.ts).
    backgroundAfter: () => startUp.firstPaint(),
    windowFirst,
    ...(opts.dataDir && vault ? { store: new ProfileStore(join(opts.dataDir, 'profiles.json')), vault } : {}),
    ...(opts.dataDir ? { journalDir: join(opts.dataDir, 'journals') } : {}),
    ...(anchorDir ? { anchorDir } : {}),
    settleMs: () => opts.writes?.settleMs ?? settings.get().settle_seconds * 1000,
    ...(opts.writes?.requestTimeoutMs ? { requestTimeoutMs: opts.writes.requestTimeoutMs } : {}),
    onWrite: (e) => {
      emit('intent', e.intent);
      if (e.record === 'duplicate') {
        const d = e.intent.duplicates?.at(-1);
        if (d)
          emit('notify', {
            title: 'A write reached the exchange twice',
            body: `${e.intent.client_id ?? e.intent.id}: exchange record ${d.exchange_id} is a copy; ${d.action === 'cancel_asked' ? 'the desk asked the exchange to cancel it' : 'the desk could not cancel it: check it on the Activity page'}.`,
            tag: `duplicate-${d.exchange_id}`,
          });
      }
      payoutRowEnded(e.intent);
      if (MONEY_MOVED_STATES.has(e.intent.state) && SUB_ACCOUNT_MOVES.has(e.intent.kind)) balancesMoved();
    },
    onJournalChanged: () => emit('journal', {}),
    log,
    onBusyBuckets: throttle((busy: BucketState[]) => emit('rateLimits', rateLimitEvent(busy)), 250),
    onLink: (outcome) => link.note(outcome),
    onProfilesChanged: (active_id) => emit('profiles', { active_id }),
    onActive: (session) => {
      unread.clear();
      // An auditor profile has no key: no history to sync, no balances to read.
      const keyed = session && !session.profile.auditor ? session : null;
      history.attach(keyed);
      if (keyed) openBalances(keyed.id);
    },
    onUnread: (req, records) => unread.note(req, records),
    hold: (id, kind) => approvals?.frozenReason(id, kind) ?? null,
    // Every send on every profile passes the operators' approvals; a desk with no data folder keeps no journal, so sends nothing.
    gate: (id, v, deadline) => (approvals ? approvals.gate(id, v, deadline) : Promise.resolve('this desk keeps no approvals')),
    onWritesReady: () => {
      void approvals?.dispatch();
      void rebalance?.kick();
      void subAccounts?.kick();
    },
  });
  if (opts.dataDir && archive) {
    team = new TeamWiring({ dataDir: opts.dataDir, vault, ...(opts.team ? { team: opts.team } : {}) });
    approvals = new DeskApprovals({
      dataDir: opts.dataDir,
      ...(anchorDir ? { anchorDir } : {}),
      session,
      vault,
      coolingOffMs: opts.coolingOffMs ?? SANDBOX_COOLING_OFF_MS,
      teams: team,
      log,
      ...(opts.now ? { now: opts.now } : {}),
      notify: (n) => emit('notify', n),
      onChange: () => {
        emit('approvals', {});
        for (const l of confirmListeners) l();
        // A batch signed in the confirmation window starts here.
        void rebalance?.kick();
        void subAccounts?.kick();
      },
    });
    const changed = throttle((ref: string) => emit('rebalance', { ref }), 250);
    subAccounts = new SubAccountsService({
      session,
      approvals,
      changed: throttle((ref: string) => emit('incident', { ref }), 250),
      log,
      notify: (n) => emit('notify', n),
    });
    rebalance = new RebalanceService({
      dataDir: opts.dataDir,
      session,
      approvals,
      archive,
      changed,
      log,
      notify: (n) => emit('notify', n),
    });
  }
  vault?.onChange(() => emit('vault', vault.status()));

  // Every client the session holds corrects the profile's permissions from a refusal itself (session.ts).
  function call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>> {
    return session.active().client.request(req, schema);
  }

  // One balances service per profile, made on first use; its timer and file live until the core closes.
  const balanceServices = new Map<string, BalancesService>();
  let closed = false;
  balancesMoved = () => {
    try {
      balanceServices.get(session.active().id)?.moneyMoved();
    } catch (e) {
      // Locked or no profile: no figures are shown, so none to renew.
      if (!(e instanceof NoProfileError) && !(e instanceof LockedError)) throw e;
    }
  };
  /**
   * A profile that opens reads its last known sub-account figures back and values them now, while the
   * window loads (in steps, between the window's requests), so that the Sub-accounts page paints them at
   * its first ask (docs/performance.md §Opening the desk). Nothing goes to the exchange until a page asks.
   */
  function openBalances(id: string): void {
    setImmediate(() => {
      // A core closed meanwhile must not open the session again to find out.
      if (closed) return;
      try {
        if (session.openableId() === id) balancesOf().warmUp();
      } catch (e) {
        // Locked again or switched away meanwhile: the next open does it.
        if (!(e instanceof NoProfileError) && !(e instanceof LockedError)) log(`[balances] ${(e as Error).message}`);
      }
    });
  }

  // Reads the profile's own file only: the last known figures are answered before the session opens (startUp.ts).
  function balancesOf(): BalancesService {
    const id = session.openableId();
    let service = balanceServices.get(id);
    if (!service) {
      const file = opts.dataDir ? join(opts.dataDir, 'balances', `${id.replace(/[^A-Za-z0-9_-]/g, '_')}.sqlite`) : null;
      service = new BalancesService({
        // A timer of a profile that is no longer active must not read with another profile's key. The
        // matrix is answered from the kept load before the start-up; its load from the exchange waits for it.
        client: () => {
          const active = () => {
            const s = session.active();
            if (s.id !== id) throw new NoProfileError();
            return s.client;
          };
          return startUp.started ? active() : startUp.begin().then(active);
        },
        store: new BalanceStore(file),
        // The kept figures a window opened on are painted before their load from the exchange starts.
        firstPaint: () => startUp.firstPaint(),
        startedUp: () => startUp.ran(),
        events: {
          progress: (p) => emit('balancesProgress', p),
          alert: (a) => {
            emit('balanceAlert', a);
            // The desktop notification both hosts show (Electron's, or the browser's under the web host).
            // The same sentence as the alerts panel, so both read the risk and its threshold as percentages.
            const what = alertSentence(a);
            emit('notify', { title: `Sub-account ${a.uid}`, body: what[0]!.toUpperCase() + what.slice(1), tag: `balance-alert-${a.id}` });
          },
        },
        log,
      });
      balanceServices.set(id, service);
    }
    return service;
  }

  const deps: HandlerDeps = {
    session,
    approvals,
    team,
    sandbox: opts.dataDir
      ? {
          dataDir: opts.dataDir,
          ...(opts.sandboxCredentialsPath ? { credentialsPath: opts.sandboxCredentialsPath } : {}),
          ...(opts.profile ? { builtIn: opts.profile } : {}),
        }
      : null,
    rebalance,
    subAccounts,
    vault,
    settings,
    call,
    history,
    log,
    balances: balancesOf,
    unread,
    notices,
    archive,
    status: () => ({ link: link.view(), rate_limits: rateLimitEvent(session.scheduler.snapshot()) }),
    windowPainted: () => startUp.windowPainted(),
  };
  payoutRowEnded = payoutFinishWatcher({
    service: () => (approvals ? serviceOf(deps) : null),
    batches: () => (approvals ? approvals.batchesOf('payouts') : Promise.resolve([])),
    notify: (n) => emit('notify', n),
    log,
  });
  if (vault) vault.setIdleMinutes(settings.get().idle_lock_minutes);
  startWork = () => {
    if (!closed) session.start();
  };
  if (opts.deferStartUp) {
    // The matrix's kept load is valued in steps meanwhile; it reads the profile's own file, nothing else.
    try {
      openBalances(session.openableId());
    } catch {
      // Locked or no profile: the unlock opens it.
    }
  } else startUp.runNow();

  async function run<C extends ChannelName>(name: C, payload: unknown): Promise<Reply<unknown>> {
    windowFirst.windowCalled();
    // An auditor profile's refusal comes first: whatever the payload, the answer says why nothing is done.
    if (!AUDITOR_CHANNELS.has(name) && session.isAuditor()) return { ok: false, error: toErrorBody(new AuditorProfileError(), name) };
    const parsed = channels[name].request.safeParse(payload ?? {});
    if (!parsed.success) return { ok: false, error: refusedRequest(name, parsed.error.issues[0]!) };
    const first = BEFORE_START_UP.has(name);
    if (!first) await startUp.begin();
    try {
      const handler = handlers[name] as (req: unknown, deps: HandlerDeps) => Promise<unknown>;
      const answer = await (first ? startUp.answerFirst(() => handler(parsed.data, deps)) : handler(parsed.data, deps));
      // Exchange answers were checked where they arrived (the client); a reply that fails its channel's
      // schema here is the desk's own bug (a journal or settings file it wrote, a handler's mistake). The
      // answers of BUILT_ANSWERS are not parsed again.
      const checked = BUILT_ANSWERS.has(name) ? ({ success: true, data: answer } as const) : channels[name].response.safeParse(answer);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        log(`[core] ${name} answered outside its contract: ${issue.path.join('.') || 'answer'}: ${issue.message}`);
        return {
          ok: false,
          error: { kind: 'internal', message: 'The desk hit an internal error; the details are in its log.', channel: name },
        };
      }
      return { ok: true, data: checked.data };
    } catch (e) {
      const body = toErrorBody(e, name);
      // Messages are built from labels, addresses and field names, never from credentials.
      log(`[core] ${logLine(body)}`);
      if (body.kind === 'internal') log(`[core] ${(e as Error)?.stack ?? String(e)}`);
      return { ok: false, error: body };
    }
  }

  async function runConfirm(name: ConfirmChannelName, payload: unknown): Promise<Reply<unknown>> {
    if (!AUDITOR_CONFIRM_CHANNELS.has(name) && session.isAuditor())
      return { ok: false, error: toErrorBody(new AuditorProfileError('nothing is signed from it'), name) };
    const parsed = confirmChannels[name].request.safeParse(payload ?? {});
    if (!parsed.success) return { ok: false, error: refusedRequest(name, parsed.error.issues[0]!) };
    await startUp.begin();
    try {
      if (!approvals) throw new InputError([], 'This desk keeps no data folder, so it has no operators.');
      const a = approvals;
      const req = parsed.data as Record<string, string>;
      let answer: unknown;
      switch (name) {
        case 'confirmState':
          answer = await a.confirmState();
          break;
        case 'confirmSign':
          answer = await a.sign(req.ticket!, req.operator!, req.passphrase!);
          break;
        case 'confirmDecline':
          a.forActive().approvals.decline(req.ticket!);
          a.notify();
          answer = { declined: true };
          break;
        case 'confirmRecover':
          answer = await a.recover(req.reason!, req.vault_passphrase);
          break;
        case 'confirmCreateFirstOperator':
          answer = { id: await a.createFirstOperator(req.name!, req.passphrase!, req.vault_passphrase) };
          break;
        case 'confirmProposeOperator':
          answer = {
            id: await a.proposeOperator(
              req.name!,
              req.enrolment !== undefined
                ? { enrolment: req.enrolment, fingerprint: req.enrolment_fingerprint! }
                : { passphrase: req.new_passphrase! },
              req.by!,
              req.passphrase!,
              req.role as Role | undefined,
            ),
          };
          break;
        case 'confirmMakeOperatorKey':
          answer = await a.makeOwnKey(req.name!, req.passphrase!);
          break;
      }
      return { ok: true, data: confirmChannels[name].response.parse(answer) };
    } catch (e) {
      const body = toErrorBody(e, name);
      log(`[core] ${logLine(body)}`);
      return { ok: false, error: body };
    }
  }

  return {
    close: async () => {
      closed = true;
      startUp.cancel();
      for (const b of balanceServices.values()) b.close();
      balanceServices.clear();
      await approvals?.close();
      await session.close();
      history.close();
    },
    reportSandbox: (state) => emit('sandbox', { state, at: Date.now() }),
    invokeConfirm(channel, payload) {
      if (!isConfirmChannel(channel))
        return Promise.resolve({
          ok: false,
          error: {
            kind: 'invalid_request',
            message: `An unknown confirmation channel was called: ${JSON.stringify(String(channel).slice(0, 64))}.`,
          },
        });
      return runConfirm(channel, payload);
    },
    subscribeConfirm(listener) {
      confirmListeners.add(listener);
      return () => confirmListeners.delete(listener);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    invoke(channel, payload) {
      if (!isChannelName(channel)) {
        return Promise.resolve({
          ok: false,
          error: { kind: 'invalid_request', message: `An unknown channel was called: ${JSON.stringify(String(channel).slice(0, 64))}.` },
        });
      }
      return run(channel, payload);
    },
  };
}
