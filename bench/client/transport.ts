import { bucketFor } from '../../shared/api/rateLimits.ts';

// What went over the wire for one client, seen below its scheduler: every HTTP exchange with its
// endpoint, status and the Sandbox's rate-limit headers (§4.3). It gives a count independent of the
// client's own counter, the 429s, and a third count derived from what the Sandbox itself reports:
// X-Svc-RateLimit-Limit minus X-Svc-RateLimit-Requests-Remain is the number of requests the Sandbox
// holds in that endpoint's rolling window once it has admitted this one (the Sandbox has no request
// counter of its own).

export interface WireExchange {
  /** performance.now() when the answer (or the failure) came back. */
  at: number;
  endpoint: string;
  status: number;
  limit?: number;
  remain?: number;
}

export interface SandboxCount {
  /** Requests the Sandbox counted, summed over endpoints. */
  count: number;
  /** False when some endpoint's window also held requests from before the phase, or the phase outlasted a window. */
  exact: boolean;
}

function intHeader(h: Headers, name: string): number | undefined {
  const v = h.get(name);
  return v !== null && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
}

export class CountingTransport {
  readonly log: WireExchange[] = [];
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly svc = 'Svc',
  ) {
    this.basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const endpoint = `${method} ${url.pathname.slice(this.basePath.length)}`;
    try {
      const res = await fetch(input, init);
      const prefix = `X-${this.svc}-RateLimit-`;
      this.log.push({
        at: performance.now(),
        endpoint,
        status: res.status,
        limit: intHeader(res.headers, `${prefix}Limit`),
        remain: intHeader(res.headers, `${prefix}Requests-Remain`),
      });
      return res;
    } catch (e) {
      this.log.push({ at: performance.now(), endpoint, status: 0 });
      throw e;
    }
  };

  /** A mark for since(). */
  get mark(): number {
    return this.log.length;
  }

  since(mark: number): WireExchange[] {
    return this.log.slice(mark);
  }

  tooMany(mark: number): number {
    return this.since(mark).filter((x) => x.status === 429).length;
  }

  /**
   * The Sandbox's own count of the requests since `mark`: per endpoint, the largest limit - remain it
   * reported. Exact when each endpoint's requests of the phase fit in one window and nothing of an
   * earlier phase was still in it.
   */
  sandboxCount(mark: number): SandboxCount {
    const before = this.log.slice(0, mark);
    const byEndpoint = new Map<string, WireExchange[]>();
    for (const x of this.since(mark)) {
      if (x.status === 429 || x.limit === undefined || x.remain === undefined) continue;
      byEndpoint.set(x.endpoint, [...(byEndpoint.get(x.endpoint) ?? []), x]);
    }
    let count = 0;
    let exact = true;
    for (const [endpoint, xs] of byEndpoint) {
      count += Math.max(...xs.map((x) => x.limit! - x.remain!));
      const [method, path] = endpoint.split(' ') as [string, string];
      // A second of margin: `at` is when the answer came back, not when the Sandbox counted the request.
      const windowMs = bucketFor(method, path).rule.windowSec * 1000;
      const previous = before.filter((x) => x.endpoint === endpoint).at(-1);
      if (previous && xs[0]!.at - previous.at < windowMs + 1000) exact = false;
      if (xs.at(-1)!.at - xs[0]!.at > windowMs - 1000) exact = false;
    }
    return { count, exact };
  }
}
