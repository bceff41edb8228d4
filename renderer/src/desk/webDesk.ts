import { CHANNEL_NAMES, type DeskApi, type Reply } from '../../../shared/ipc.ts';

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
  const call = async (name: string, request: unknown): Promise<Reply<unknown>> => {
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
  return Object.fromEntries(CHANNEL_NAMES.map((n) => [n, (req: unknown) => call(n, req)])) as DeskApi;
}
