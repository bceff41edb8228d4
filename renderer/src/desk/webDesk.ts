import { deskApiOver, isEventName, type ChannelName, type DeskApi, type DeskTransport, type EventName, type Reply } from '../../../shared/ipc.ts';

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
      });
    } catch {
      return { ok: false, error: { kind: 'network', message: 'The desk\'s host does not answer. Is `npm start` still running?' } };
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

/** One server-sent-event stream for all listeners, opened on the first subscription, reopened when it drops. */
function eventStream(token: string) {
  const listeners = new Map<string, Set<Listener>>();
  let open = false;

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
    open = true;
    try {
      const res = await fetch('./events', { headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
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
      // The host went away or restarted: try again shortly, as EventSource would.
    }
    setTimeout(() => void run(), 2000);
  }

  return (event: EventName, listener: Listener): (() => void) => {
    if (!isEventName(event)) throw new Error(`unknown desk event: ${event}`);
    const set = listeners.get(event) ?? new Set<Listener>();
    set.add(listener);
    listeners.set(event, set);
    if (!open) void run();
    return () => set.delete(listener);
  };
}
