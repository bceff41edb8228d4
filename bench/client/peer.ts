import { createRequire } from 'node:module';
import { thirtyDayWindows } from '../../electron/core/sync/windows.ts';
import type { KeyPair } from './admin.ts';

// The peer: ccxt's client for this exchange (class `gate`), pointed at the Sandbox as docs/benchmarks.md §client says
// (every public and private URL entry set to the base address, its own rate limiter on), driven through
// its implicit endpoint methods, which do not load markets first. The loops are the ones a ccxt user
// would write: pages until a short one, windows one after the other; independent reads of the refresh
// are started together, as the desk's are, and ccxt's throttler orders them.

type Params = Record<string, string | number>;
type Rows = Array<Record<string, unknown>>;

interface GateExchange {
  urls: { api: { public: Record<string, string>; private: Record<string, string> } };
  fetch(url: string, method?: string, headers?: unknown, body?: unknown): Promise<unknown>;
  privateWalletGetTotalBalance(p?: Params): Promise<unknown>;
  privateWalletGetSubAccountBalances(p?: Params): Promise<Rows>;
  privateWalletGetSubAccountMarginBalances(p?: Params): Promise<Rows>;
  privateWalletGetSubAccountFuturesBalances(p?: Params): Promise<Rows>;
  privateWalletGetSubAccountCrossMarginBalances(p?: Params): Promise<Rows>;
  privateWalletGetWithdrawals(p?: Params): Promise<Rows>;
  privateWalletGetDeposits(p?: Params): Promise<Rows>;
}

interface CcxtModule {
  gate: new (config: Record<string, unknown>) => GateExchange;
  RateLimitExceeded: new (...a: unknown[]) => Error;
  DDoSProtection: new (...a: unknown[]) => Error;
}

// The CommonJS build (dist/ccxt.cjs, the package's "require" export).
const ccxt = createRequire(import.meta.url)('ccxt') as CcxtModule;

/** After a 429 the loop must still finish; a ccxt user would wait and ask again. */
const RETRY_AFTER_429_MS = 1000;

export class Peer {
  readonly ex: GateExchange;
  requests = 0;
  tooMany = 0;

  constructor(baseUrl: string, key: KeyPair) {
    this.ex = new ccxt.gate({ apiKey: key.key, secret: key.secret, enableRateLimit: true, timeout: 30_000 });
    for (const table of [this.ex.urls.api.public, this.ex.urls.api.private]) for (const k of Object.keys(table)) table[k] = baseUrl;
    // Counted below ccxt's throttler, at the HTTP call.
    const send = this.ex.fetch.bind(this.ex);
    this.ex.fetch = async (...args: Parameters<GateExchange['fetch']>) => {
      this.requests++;
      try {
        return await send(...args);
      } catch (e) {
        if (e instanceof ccxt.RateLimitExceeded || e instanceof ccxt.DDoSProtection) this.tooMany++;
        throw e;
      }
    };
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await fn();
      } catch (e) {
        if (!(e instanceof ccxt.RateLimitExceeded || e instanceof ccxt.DDoSProtection)) throw e;
        await new Promise((r) => setTimeout(r, RETRY_AFTER_429_MS));
      }
    }
  }

  private async pages(fetchPage: (offsetOrPage: number) => Promise<Rows>, limit: number, first: number, step: number): Promise<Rows> {
    const out: Rows = [];
    for (let at = first; ; at += step) {
      const rows = await this.call(() => fetchPage(at));
      out.push(...rows);
      if (rows.length < limit) return out;
    }
  }

  private withdrawals(from: number, to: number): Promise<Rows> {
    return this.pages((offset) => this.ex.privateWalletGetWithdrawals({ from, to, limit: 1000, offset }), 1000, 0, 1000);
  }

  async refresh(from: number, to: number): Promise<{ ms: number; subAccounts: number; withdrawals: number; deposits: number }> {
    const t0 = performance.now();
    const [, spot, margin, futures, cross, withdrawals, deposits] = await Promise.all([
      this.call(() => this.ex.privateWalletGetTotalBalance()),
      this.pages((page) => this.ex.privateWalletGetSubAccountBalances({ page, limit: 100 }), 100, 1, 1),
      this.call(() => this.ex.privateWalletGetSubAccountMarginBalances()),
      this.call(() => this.ex.privateWalletGetSubAccountFuturesBalances()),
      this.call(() => this.ex.privateWalletGetSubAccountCrossMarginBalances()),
      this.withdrawals(from, to),
      this.pages((offset) => this.ex.privateWalletGetDeposits({ from, to, limit: 500, offset }), 500, 0, 500),
    ]);
    const ms = performance.now() - t0;
    const uids = new Set([spot, margin, futures, cross].flatMap((list) => list.map((r) => String(r.uid))));
    return { ms, subAccounts: uids.size, withdrawals: withdrawals.length, deposits: deposits.length };
  }

  /** The year in the same 30-day windows as the desk, oldest first; records on a shared boundary second are counted once. */
  async history(from: number, to: number): Promise<{ ms: number; withdrawals: number }> {
    const t0 = performance.now();
    const ids = new Set<string>();
    for (const w of thirtyDayWindows(from, to)) for (const r of await this.withdrawals(w.from, w.to)) ids.add(String(r.id));
    return { ms: performance.now() - t0, withdrawals: ids.size };
  }
}
