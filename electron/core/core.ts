import { join } from 'node:path';
import { channels, events, isChannelName, type ChannelName, type DeskErrorBody, type EventName, type EventPayload, type Reply } from '../../shared/ipc.ts';
import type { ApiRequest } from './client/client.ts';
import { rateLimitEvent } from './client/rateLimitEvent.ts';
import type { BucketState } from './client/scheduler.ts';
import { ExchangeError, NetworkError } from './client/errors.ts';
import { BalancesService } from './balances/service.ts';
import { BalanceStore } from './balances/store.ts';
import { WipedSecretError } from './client/sign.ts';
import { handlers, type HandlerDeps } from './handlers.ts';
import type { Profile } from './profiles/profile.ts';
import { InputError, ProfileStore } from './profiles/store.ts';
import { JournalDamagedWritesError, NoProfileError, Sessions } from './session.ts';
import { SettingsStore } from './settings.ts';
import { VaultError } from './vault/errors.ts';
import { HistoryService } from './history/service.ts';
import { LockedError, type VaultPort } from './vaultPort.ts';

/** The platform-free core: hosts hand it a channel name and an untrusted payload; it answers a Reply. */
export interface Core {
  invoke(channel: string, payload: unknown): Promise<Reply<unknown>>;
  /** Stops background work (status polling, writes in progress wait as journaled) and closes files. */
  close(): Promise<void>;
  /** Core events for the renderer; hosts forward them. Returns the function that unsubscribes. */
  subscribe(listener: EventListener): () => void;
}

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface CoreOptions {
  /** The built-in profile: the Sandbox's, or one pinned by a test or benchmark. */
  profile?: Profile;
  /** The desk's data folder; without it nothing is stored (pinned-profile mode). */
  dataDir?: string;
  /** Required with dataDir: where secrets of stored profiles are kept. */
  vault?: VaultPort;
  log?: (line: string) => void;
  /** Pace of the history loops (tests and benchmarks). */
  history?: { syncEveryMs?: number; tickMs?: number; checkMaxMs?: number };
}

function toErrorBody(e: unknown): DeskErrorBody {
  if (e instanceof ExchangeError) return { kind: 'exchange', label: e.label, message: e.message };
  if (e instanceof NetworkError) return { kind: 'network', message: e.message };
  if (e instanceof LockedError || e instanceof WipedSecretError) return { kind: 'locked', message: e.message };
  if (e instanceof JournalDamagedWritesError) return { kind: 'invalid_request', label: 'JOURNAL_DAMAGED', message: e.message };
  if (e instanceof NoProfileError) return { kind: 'invalid_request', message: e.message };
  if (e instanceof InputError) return { kind: 'invalid_request', message: e.message, path: e.path };
  // Vault messages are written for the operator (what happened, what to do) and never carry a secret.
  if (e instanceof VaultError) return { kind: e.code === 'WRONG_PASSPHRASE' || e.code === 'UNLOCK_BACKOFF' ? 'locked' : 'invalid_request', label: e.code, message: e.message };
  return { kind: 'internal', message: 'The desk hit an internal error; the details are in its log.' };
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

export function createCore(opts: CoreOptions): Core {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const listeners = new Set<EventListener>();
  /** Every event is checked against its schema before it leaves, like every answer. */
  function emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = events[event].parse(payload) as EventPayload<E>;
    for (const l of listeners) l(event, checked);
  }

  const vault = opts.dataDir ? (opts.vault ?? null) : null;
  const history = new HistoryService({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    log,
    events: { changed: (e) => emit('history', e), notify: (n) => emit('notify', n) },
    ...(opts.history ?? {}),
  });
  const settings = new SettingsStore(opts.dataDir ? join(opts.dataDir, 'settings.json') : undefined);
  const sessions = new Sessions({
    builtIn: opts.profile,
    ...(opts.dataDir && vault ? { store: new ProfileStore(join(opts.dataDir, 'profiles.json')), vault } : {}),
    ...(opts.dataDir ? { journalDir: join(opts.dataDir, 'journals') } : {}),
    settleMs: () => settings.get().settle_seconds * 1000,
    onWrite: (e) => emit('intent', e.intent),
    onJournalChanged: () => emit('journal', {}),
    log,
    onBusyBuckets: throttle((busy: BucketState[]) => emit('rateLimits', rateLimitEvent(busy)), 250),
    onProfilesChanged: (active_id) => emit('profiles', { active_id }),
    onActive: (session) => history.attach(session),
  });
  vault?.onChange(() => emit('vault', vault.status()));

  // One balances service per profile, made on first use; its timer and file live until the core closes.
  const balanceServices = new Map<string, BalancesService>();
  function balancesOf(): BalancesService {
    const id = sessions.active().id;
    let service = balanceServices.get(id);
    if (!service) {
      const file = opts.dataDir ? join(opts.dataDir, 'balances', `${id.replace(/[^A-Za-z0-9_-]/g, '_')}.sqlite`) : null;
      service = new BalancesService({
        // A timer of a profile that is no longer active must not read with another profile's key.
        client: () => {
          const s = sessions.active();
          if (s.id !== id) throw new NoProfileError();
          return s.client;
        },
        store: new BalanceStore(file),
        events: {
          progress: (p) => emit('balancesProgress', p),
          alert: (a) => {
            emit('balanceAlert', a);
            // The desktop notification both hosts show (Electron's, or the browser's under the web host).
            const what = a.kind === 'low_balance' ? `${a.subject} below the floor of ${a.threshold}` : `${a.kind === 'cross_risk' ? 'cross margin' : `isolated margin ${a.subject}`} risk ${a.value} below ${a.threshold} (1.1 is liquidation)`;
            emit('notify', { title: `Sub-account ${a.uid}`, body: what, tag: `balance-alert-${a.id}` });
          },
        },
        log,
      });
      balanceServices.set(id, service);
    }
    return service;
  }

  const deps: HandlerDeps = {
    sessions,
    history,
    log,
    vault,
    settings,
    balances: balancesOf,
    async call<T>(req: ApiRequest): Promise<T> {
      const { client } = sessions.active();
      try {
        return await client.request<T>(req);
      } catch (e) {
        sessions.learnFromRefusal(e, req.method, req.path);
        throw e;
      }
    },
  };
  if (vault) vault.setIdleMinutes(settings.get().idle_lock_minutes);
  sessions.start();

  async function run<C extends ChannelName>(name: C, payload: unknown): Promise<Reply<unknown>> {
    const parsed = channels[name].request.safeParse(payload ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.length ? issue.path.join('.') : 'request';
      return {
        ok: false,
        error: { kind: 'invalid_request', message: `${name}: ${where}: ${issue.message}`, path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) },
      };
    }
    try {
      const handler = handlers[name] as (req: unknown, deps: HandlerDeps) => Promise<unknown>;
      const answer = await handler(parsed.data, deps);
      const checked = channels[name].response.safeParse(answer);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        return { ok: false, error: { kind: 'exchange', message: `The exchange's answer to ${name} did not have the expected shape (${issue.path.join('.')}: ${issue.message}).` } };
      }
      return { ok: true, data: checked.data };
    } catch (e) {
      const body = toErrorBody(e);
      // Messages are built from labels, addresses and field names, never from credentials.
      log(`[core] ${name} failed: ${body.kind}${body.label ? ` ${body.label}` : ''}: ${body.message}`);
      if (body.kind === 'internal') log(`[core] ${(e as Error)?.stack ?? String(e)}`);
      return { ok: false, error: body };
    }
  }

  return {
    close: async () => {
      for (const b of balanceServices.values()) b.close();
      balanceServices.clear();
      await sessions.close();
      history.close();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    invoke(channel, payload) {
      if (!isChannelName(channel)) {
        return Promise.resolve({ ok: false, error: { kind: 'invalid_request', message: `unknown channel: ${String(channel).slice(0, 64)}` } });
      }
      return run(channel, payload);
    },
  };
}
