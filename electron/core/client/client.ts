import { ErrorBody } from '../../../shared/api/records.ts';
import { ExchangeError, NetworkError } from './errors.ts';
import { encodeQuery, sign, type QueryPairs } from './sign.ts';

export interface Credentials {
  key: string;
  secret: string;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** Path below the base address, starting with "/" (for example "/wallet/total_balance"). */
  path: string;
  query?: QueryPairs;
  body?: unknown;
  /** Public endpoints go out unsigned. */
  signed?: boolean;
}

export interface ApiClientOptions {
  baseUrl: string;
  credentials: Credentials;
  /** Seconds since the epoch, as the exchange's clock would read it. */
  now?: () => number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class ApiClient {
  private readonly base: URL;
  private readonly now: () => number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly opts: ApiClientOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, ''));
    this.now = opts.now ?? (() => Date.now() / 1000);
    this.fetchImpl = opts.fetch ?? fetch;
  }

  async request<T>(req: ApiRequest): Promise<T> {
    const { sent, signed } = encodeQuery(req.query ?? []);
    const fullPath = `${this.base.pathname}${req.path}`;
    const url = `${this.base.origin}${fullPath}${sent ? `?${sent}` : ''}`;
    const body = req.body === undefined ? '' : JSON.stringify(req.body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body) headers['Content-Type'] = 'application/json';
    if (req.signed !== false) {
      const ts = String(Math.floor(this.now()));
      headers.KEY = this.opts.credentials.key;
      headers.Timestamp = ts;
      headers.SIGN = sign(this.opts.credentials.secret, req.method, fullPath, signed, body, ts);
    }

    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method: req.method,
        headers,
        body: body || undefined,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
      });
    } catch (e) {
      throw new NetworkError(`no answer from ${this.base.origin}: ${(e as Error).message}`, e);
    }
    const text = await res.text();
    if (res.ok) {
      if (!text) return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new NetworkError(`${this.base.origin} answered ${res.status} with a body that is not JSON`);
      }
    }
    let parsed: ReturnType<typeof ErrorBody.safeParse> | undefined;
    try {
      parsed = ErrorBody.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) {
      throw new ExchangeError(res.status, parsed.data.label, parsed.data.message ?? parsed.data.detail ?? '');
    }
    throw new NetworkError(`${this.base.origin} answered HTTP ${res.status} without an error label`);
  }
}
