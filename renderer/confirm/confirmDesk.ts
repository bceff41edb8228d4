import { CONFIRM_CHANNEL_NAMES, CONFIRM_EVENT, type ConfirmApi, type ConfirmReply } from '../../shared/confirm.ts';

// The confirmation page's bridge: Electron's confirmation preload exposes `window.confirmDesk`; under
// the web host the page talks to its own origin with its own token (from the URL fragment, kept for
// this tab only). It never talks to the main window's host.

declare global {
  interface Window {
    confirmDesk?: ConfirmApi;
  }
}

function takeToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('confirm-token', fromHash);
    history.replaceState(null, '', window.location.pathname);
    return fromHash;
  }
  return sessionStorage.getItem('confirm-token');
}

function webConfirmDesk(token: string): ConfirmApi {
  const call = async (name: string, request: unknown): Promise<ConfirmReply<unknown>> => {
    try {
      const res = await fetch(`./rpc/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(request ?? {}),
      });
      return (await res.json()) as ConfirmReply<unknown>;
    } catch {
      return { ok: false, error: { kind: 'network', message: 'The desk does not answer. Is it still running?' } };
    }
  };
  const onChanged = (listener: () => void): (() => void) => {
    let stopped = false;
    const run = async (): Promise<void> => {
      try {
        const res = await fetch('./events', { headers: { Authorization: `Bearer ${token}` } });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done || stopped) break;
          if (value.includes(`event: ${CONFIRM_EVENT}`)) listener();
        }
      } catch {
        // Reconnect below.
      }
      if (!stopped) setTimeout(() => void run(), 2000);
    };
    void run();
    return () => {
      stopped = true;
    };
  };
  return { ...Object.fromEntries(CONFIRM_CHANNEL_NAMES.map((n) => [n, (r: unknown) => call(n, r)])), onChanged } as ConfirmApi;
}

export function confirmDesk(): ConfirmApi | null {
  if (window.confirmDesk) return window.confirmDesk;
  const token = takeToken();
  return token ? webConfirmDesk(token) : null;
}
