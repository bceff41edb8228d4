import type { ChannelName, DeskApi, DeskTransport, EventName, Reply } from '../../../shared/ipc.ts';
import { deskApiOver, HISTORY_LISTS, isEventName } from '../../../shared/ipcNames.ts';
import { afterPaint } from '../components/afterPaint.ts';

// In a browser (web host) there is no preload: the same DeskApi is built over loopback HTTP.
// The token comes in the URL fragment; it is kept for this tab only and removed from the address bar.

function takeToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('desk-token', fromHash);
    history.replaceState(null, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  return sessionStorage.getItem('desk-token');
}

/** The web host itself did not answer (the desk's process is gone), as opposed to the exchange behind it. */
export const HOST_DOWN = "The desk's host does not answer. Is `npm start` still running?";

/**
 * Reads that go on connections of their own. A browser gives a page at most six connections to its host,
 * one holds the event stream, and the Overview's reads of the exchange hold theirs for as long as the
 * exchange takes (0.5 s on a busy machine): a click on Withdrawals then waited for one to free before its
 * first page was even sent (docs/performance.md §Long lists). A request without credentials is pooled apart from those with
 * them (the browser keys its connections by it); the desk's token travels in a header, never in a cookie,
 * so these reads need none. The lists and a row's detail are answered from the desk's own cache at once.
 * So is the window's word that it painted its first figures, which the core's background work waits for
 * (electron/core/startUp.ts): behind six calls waiting for the core's start-up it waited for the bound.
 */
export const OWN_CONNECTIONS: ReadonlySet<ChannelName> = new Set<ChannelName>([...HISTORY_LISTS, 'withdrawalDetail', 'windowPainted']);

export function createWebDesk(): DeskApi | null {
  const token = takeToken();
  if (!token) return null;
  const invoke = async (name: ChannelName, request: unknown): Promise<Reply<unknown>> => {
    let res: Response;
    try {
      res = await fetch(`./rpc/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(request ?? {}),
        credentials: OWN_CONNECTIONS.has(name) ? 'omit' : 'same-origin',
      });
    } catch {
      return { ok: false, error: { kind: 'network', message: HOST_DOWN } };
    }
    try {
      return (await res.json()) as Reply<unknown>;
    } catch {
      return { ok: false, error: { kind: 'internal', message: `The desk's host answered HTTP ${res.status} without a reply.` } };
    }
  };
  return deskApiOver({ invoke, on: eventStream(token) } satisfies DeskTransport);
}

type Listener = (payload: unknown) => void;

export interface EventStreamOptions {
  fetch?: typeof fetch;
  /** First pause before reconnecting, doubled after each failure up to maxRetryMs. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** Runs the opening of a stream no listener had (default: after the first paint and the frame being drawn, afterFrame). */
  later?: (open: () => void) => void;
}

let firstPaint: Promise<void> = Promise.resolve();

/**
 * The window's first stream waits for this (main.tsx: the opening page's figures shown, or a bound). The
 * first listeners subscribe in the first render's effects, before the window's first paint; the stream
 * opened there, and what it brought, took a fifth of a new window's processor before the Sub-accounts
 * matrix showed (docs/performance.md §Opening the desk: CPU profiles of `npm run bench -- ui-subaccounts` from a new process, 312
 * against 238 ms). An event the core sends meanwhile is missed as one sent before any window connected
 * is: the pages that wait for one also ask again.
 */
export function openEventsAfter(shown: Promise<void>): void {
  firstPaint = shown;
}

/** After the first paint, and after the frame being drawn. */
function afterFrame(open: () => void): void {
  void firstPaint.then(() => afterPaint(open));
}

/**
 * One server-sent-event stream for all listeners: opened on the first subscription, closed when the
 * last listener leaves (the host then drops its subscription to the core), and reopened after a drop
 * with a backoff that doubles from minRetryMs up to maxRetryMs and starts again once connected.
 */
export function eventStream(token: string, opts: EventStreamOptions = {}) {
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const minRetry = opts.minRetryMs ?? 500;
  const maxRetry = opts.maxRetryMs ?? 30_000;
  const listeners = new Map<string, Set<Listener>>();
  let stream: AbortController | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let retryMs = minRetry;
  const later = opts.later ?? afterFrame;
  /** A first connection waits for `later`. */
  let opening = false;
  const listening = () => [...listeners.values()].some((s) => s.size > 0);

  function dispatch(block: string): void {
    let event = '';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    if (!event || !data) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const l of listeners.get(event) ?? []) l(payload);
  }

  async function run(): Promise<void> {
    const mine = new AbortController();
    stream = mine;
    try {
      const res = await doFetch('./events', { headers: { Authorization: `Bearer ${token}` }, signal: mine.signal });
      if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
      retryMs = minRetry;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          dispatch(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // The host went away, restarted, or the stream was closed on purpose (below).
    }
    if (stream !== mine) return;
    stream = null;
    if (!listening()) return;
    retry = setTimeout(() => {
      retry = null;
      if (listening() && !stream) void run();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, maxRetry);
  }

  return (event: EventName, listener: Listener): (() => void) => {
    if (!isEventName(event)) throw new Error(`unknown desk event: ${event}`);
    const set = listeners.get(event) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(event, set);
    if (!stream && !retry && !opening) {
      opening = true;
      later(() => {
        opening = false;
        if (listening() && !stream && !retry) void run();
      });
    }
    return () => {
      set.delete(listener);
      if (listening()) return;
      if (retry) clearTimeout(retry);
      retry = null;
      const open = stream;
      stream = null;
      open?.abort();
    };
  };
}
