// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebDesk, eventStream } from './webDesk.ts';

// The web host's event stream as the page holds it: one stream while someone listens, none after, and
// reconnection paced by a bounded backoff. A fake fetch stands for the host.

afterEach(() => {
  vi.useRealTimers();
});

function host() {
  const opened: Array<{ signal: AbortSignal; push: (text: string) => void }> = [];
  const fetchImpl = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    let push!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(new TextEncoder().encode(text));
        init!.signal!.addEventListener('abort', () => controller.error(new Error('aborted')));
      },
    });
    opened.push({ signal: init!.signal!, push });
    return new Response(body, { status: 200 });
  }) as typeof fetch;
  return { opened, fetchImpl };
}

describe('the web desk event stream', () => {
  it('opens one stream for all listeners and closes it when the last one leaves', async () => {
    const h = host();
    const on = eventStream('t', { fetch: h.fetchImpl });
    const got: unknown[] = [];
    const offA = on('intent', (p) => got.push(p));
    const offB = on('vault', () => {});
    await vi.waitFor(() => expect(h.opened).toHaveLength(1));
    h.opened[0]!.push('event: intent\ndata: {"id":"x"}\n\n');
    await vi.waitFor(() => expect(got).toEqual([{ id: 'x' }]));
    offA();
    expect(h.opened[0]!.signal.aborted).toBe(false);
    offB();
    expect(h.opened[0]!.signal.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(h.opened).toHaveLength(1);
  });

  it('opens the stream after the frame being drawn, not inside the render that subscribed', async () => {
    const h = host();
    const on = eventStream('t', { fetch: h.fetchImpl });
    const off = on('intent', () => {});
    await Promise.resolve();
    expect(h.opened).toHaveLength(0);
    await vi.waitFor(() => expect(h.opened).toHaveLength(1));
    off();
    // Left before it opened: nothing is opened.
    const gone = on('vault', () => {});
    gone();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.opened).toHaveLength(1);
  });

  it('reconnects after failures with a doubling pause capped at the maximum, and stops once nobody listens', async () => {
    vi.useFakeTimers();
    const attempts: number[] = [];
    const failing = (async () => {
      attempts.push(Date.now());
      throw new TypeError('connection refused');
    }) as typeof fetch;
    const on = eventStream('t', { fetch: failing, minRetryMs: 500, maxRetryMs: 4000, later: (open) => open() });
    const off = on('intent', () => {});
    await vi.advanceTimersByTimeAsync(500 + 1000 + 2000 + 4000 + 4000 + 4000);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(gaps).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    off();
    const before = attempts.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toHaveLength(before);
  });
});

describe('the web desk calls', () => {
  it("sends the history lists on connections of their own, without credentials, so that the Overview's reads of the exchange never hold them", async () => {
    window.location.hash = '#token=t0k3n';
    const sent: Array<{ url: string; init: RequestInit }> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify({ ok: true, data: {} }), { status: 200 });
    });
    try {
      const desk = createWebDesk()!;
      await desk.totalBalance({});
      await desk.withdrawalsList({});
      await desk.withdrawalDetail({ id: 'w1' });
      // The window's word that it painted too: behind six calls waiting for the core's start-up it waited for its bound.
      await desk.windowPainted({});
      expect(sent.map((s) => [s.url, s.init.credentials])).toEqual([
        ['./rpc/totalBalance', 'same-origin'],
        ['./rpc/withdrawalsList', 'omit'],
        ['./rpc/withdrawalDetail', 'omit'],
        ['./rpc/windowPainted', 'omit'],
      ]);
      // The token still goes with each of them, in its header.
      for (const s of sent) expect((s.init.headers as Record<string, string>).Authorization).toBe('Bearer t0k3n');
    } finally {
      vi.unstubAllGlobals();
      sessionStorage.removeItem('desk-token');
    }
  });
});
