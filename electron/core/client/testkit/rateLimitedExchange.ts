import { bucketFor } from '../../../../shared/api/rateLimits.ts';
import type { FakeTime } from './fakeTime.ts';

// An exchange in the test's own process, on virtual time: it enforces §8.2 rolling windows the way the
// spec words them (a request is refused when `limit` requests of its bucket arrived in the last window),
// checks the Timestamp against its own clock (§5.6), answers the §4.3 headers, and records every arrival.

export interface Arrival {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  headers: Record<string, string>;
  /** Server-clock epoch ms at which the request arrived. */
  at: number;
  status: number;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Never answer (the client must time out). */
  hang?: boolean;
}

export type Route = (req: Arrival) => FakeAnswer;

export interface RateLimitedExchangeOptions {
  /** One-way latency for each request, ms (default 5). */
  latency?: (n: number) => number;
  /** Server clock minus the test's clock, ms. */
  serverOffsetMs?: number;
  svc?: string;
  limits?: boolean;
}

export const BASE_URL = 'https://exchange.test/api/v4';

export class RateLimitedExchange {
  readonly arrivals: Arrival[] = [];
  readonly routes = new Map<string, Route>();
  /** Arrival times per bucket key, including `external` ones. */
  private readonly windows = new Map<string, number[]>();
  private n = 0;

  constructor(
    private readonly time: FakeTime,
    private readonly opts: RateLimitedExchangeOptions = {},
  ) {}

  serverNow(): number {
    return this.time.now() + (this.opts.serverOffsetMs ?? 0);
  }

  setServerOffset(ms: number): void {
    this.opts.serverOffsetMs = ms;
  }

  /** Requests some other program made with the same key, counted at the current server time. */
  external(method: string, path: string, uid: string, count: number): void {
    const key = this.bucketKey(method, path, uid);
    const list = this.windows.get(key) ?? [];
    for (let i = 0; i < count; i++) list.push(this.serverNow());
    this.windows.set(key, list);
  }

  on(method: string, path: string, route: Route): void {
    this.routes.set(`${method} ${path}`, route);
  }

  count(method: string, path: string): number {
    return this.arrivals.filter((a) => a.method === method && a.path === path).length;
  }

  readonly fetch = ((input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const latency = this.opts.latency?.(this.n++) ?? 5;
    const signal = init.signal;
    return new Promise<Response>((resolve, reject) => {
      let done = false;
      const fail = (): void => {
        if (done) return;
        done = true;
        reject(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }));
      };
      if (signal?.aborted) return fail();
      signal?.addEventListener('abort', fail, { once: true });
      this.time.setTimeout(() => {
        if (done) return;
        const { status, body, hang, headers } = this.arrive(url, init);
        if (hang) return;
        this.time.setTimeout(() => {
          if (done) return;
          done = true;
          const text = body === undefined ? '' : JSON.stringify(body);
          resolve({
            ok: status >= 200 && status < 300,
            status,
            headers: new Headers(headers),
            text: async () => text,
          } as unknown as Response);
        }, latency);
      }, latency);
    });
  }) as typeof fetch;

  private bucketKey(method: string, path: string, uid: string): string {
    const b = bucketFor(method, path);
    return b.rule.scope === 'ip' ? `ip|${b.key}` : `${uid}|${b.key}`;
  }

  private arrive(url: URL, init: RequestInit): FakeAnswer & { status: number; headers: Record<string, string> } {
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\/v4/, '');
    const reqHeaders = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>));
    const now = this.serverNow();
    const arrival: Arrival = {
      method,
      path,
      query: url.searchParams,
      body: String(init.body ?? ''),
      headers: reqHeaders,
      at: now,
      status: 0,
    };
    this.arrivals.push(arrival);
    const svc = this.opts.svc ?? 'Svc';
    const headers: Record<string, string> = { 'X-In-Time': String(now * 1000) };
    const answer = (status: number, body: unknown, extra: FakeAnswer = {}) => {
      arrival.status = status;
      return { ...extra, status, body, headers };
    };

    const b = bucketFor(method, path);
    const key = this.bucketKey(method, path, reqHeaders.KEY ?? '');
    const windowMs = b.rule.windowSec * 1000;
    const list = (this.windows.get(key) ?? []).filter((t) => t > now - windowMs);
    this.windows.set(key, list);
    if (this.opts.limits !== false) {
      headers[`X-${svc}-RateLimit-Limit`] = String(b.rule.limit);
      if (list.length >= b.rule.limit) {
        headers[`X-${svc}-RateLimit-Requests-Remain`] = '0';
        headers[`X-${svc}-RateLimit-Reset-Timestamp`] = String(Math.ceil((list[list.length - b.rule.limit]! + windowMs) / 1000));
        return answer(429, { label: 'TOO_MANY_REQUESTS', message: 'rate limit exceeded' });
      }
      list.push(now);
      headers[`X-${svc}-RateLimit-Requests-Remain`] = String(b.rule.limit - list.length);
      headers[`X-${svc}-RateLimit-Reset-Timestamp`] = String(Math.floor(now / 1000));
    }
    if (reqHeaders.KEY !== undefined) {
      const ts = Number(reqHeaders.Timestamp);
      if (!Number.isFinite(ts) || Math.abs(ts * 1000 - now) > 60_000) {
        return answer(401, { label: 'REQUEST_EXPIRED', message: 'timestamp is too far from server time' });
      }
    }
    if (path === '/spot/time' && !this.routes.has(`GET ${path}`)) return answer(200, { server_time: now });
    const route = this.routes.get(`${method} ${path}`);
    const out = route ? route(arrival) : {};
    return answer(out.status ?? 200, out.body ?? [], out);
  }
}
