import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { bucketFor } from '../../../shared/api/rateLimits.ts';
import { ErrorBody } from '../../../shared/api/records.ts';
import type { UnreadRecord } from '../../../shared/unread.ts';

export type { UnreadRecord } from '../../../shared/unread.ts';
import { epochMsFromAnyUnit, ServerClock } from './clock.ts';
import { AnswerShapeError, DeadlinePassedError, ExchangeError, HeldBackError, NetworkError } from '../errors.ts';
import { backoffMs, isRetryableRead } from './retry.ts';
import { Scheduler, type Feedback, type Priority } from './scheduler.ts';
import { encodeQuery, sign, type QueryPairs } from './sign.ts';
import { realTimer, sleep, type Timer } from './time.ts';
import type { WindowFirst } from './windowFirst.ts';

/** Records a list read checks between two turns of the event loop. */
const CHECK_STEP = 100;

export type { Priority } from './scheduler.ts';

export interface Credentials {
  key: string;
  /** A Buffer for stored profiles (zeroed on lock); never copied into a string here. */
  secret: string | Buffer;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** Path below the base address, starting with "/" (for example "/wallet/total_balance"). */
  path: string;
  query?: QueryPairs;
  body?: unknown;
  /** Public endpoints go out unsigned. */
  signed?: boolean;
  /** 'action' for a person's click, 'visible' for the page on screen (default), 'background' for polling. */
  priority?: Priority;
  /**
   * A write's deadline (local epoch ms, docs/failure-modes.md §In doubt): the request is aborted at it, and
   * one still queued when it passes never leaves (DeadlinePassedError), so no attempt outlives its record.
   */
  deadline?: number;
  /**
   * Why a write must not leave now (a freeze signed while it waited for its rate window), asked as it
   * leaves the queue: a reason stops it there (HeldBackError), before anything is sent.
   */
  heldBy?: () => string | null;
}

export interface ApiClientOptions {
  baseUrl: string;
  credentials: Credentials;
  /** The service name in the rate-limit header prefix (§4.3): X-<svc>-RateLimit-*. */
  svc?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  timer?: Timer;
  /** Share one scheduler between clients of one machine so that IP-scoped buckets are counted once. */
  scheduler?: Scheduler;
  /** For a client that makes its own scheduler. */
  limitsOff?: boolean;
  /** Names the UID budget this key draws from (default: a digest of the key, never the key: it shows in events). */
  account?: string;
  clock?: ServerClock;
  /** Attempts for a read, the first included (default 4). Writes always get one. */
  maxReadAttempts?: number;
  random?: () => number;
  /**
   * Told of every labelled refusal this key meets, whoever sent the request (a page, a background sync, a
   * write): READ_ONLY and FORBIDDEN prove what the key may do, and the desk corrects its permissions.
   */
  onRefusal?: (label: string, method: string, path: string) => void;
  /** Told of every list answer read by `requestList`, with the records it set aside (none: the answer is clean again). */
  onUnread?: (req: ApiRequest, unread: UnreadRecord[]) => void;
  /** Told of every request's outcome at the wire: answered (any status), or no answer at all. */
  onLink?: (outcome: LinkOutcome) => void;
  /** A profile without a key (an auditor's): every request is refused with this error before it is signed or queued. */
  keyless?: () => Error;
  /** Holds 'background' requests, and the checking of their answers, while the operator's window is asking. */
  windowFirst?: WindowFirst;
}

/** What one request learnt of the link: the exchange answered (whatever it said), or nothing came back. */
export type LinkOutcome = { answered: true } | { answered: false; timedOut: boolean };

export interface ListOptions {
  /**
   * Told how many records the answer holds as soon as it is known to be a list, before they are checked:
   * a page reader can ask for the next page while this one's records are checked (pagination.ts).
   */
  onSent?: (sent: number) => void;
}

/** A list answer: the records that read, and those set aside. */
export interface ListAnswer<T> {
  records: T[];
  unread: UnreadRecord[];
  /** Records the exchange sent, read or not: a page is full by this count (§8.1), not by what was kept. */
  sent: number;
  origin: string;
}

/** Fields that name a record, in the order tried. */
const RECORD_IDS = ['id', 'uid', 'user_id', 'withdraw_order_id', 'client_order_id', 'currency_pair', 'currency'] as const;

function recordName(raw: unknown, index: number): string {
  if (raw !== null && typeof raw === 'object') {
    for (const k of RECORD_IDS) {
      const v = (raw as Record<string, unknown>)[k];
      if ((typeof v === 'string' && v !== '' && v.length <= 64) || typeof v === 'number') return `${k} ${String(v)}`;
    }
  }
  return `record ${index + 1}`;
}

/** A request as it went out and came back, for callers that need more than the body. */
export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

export class ApiClient {
  readonly clock: ServerClock;
  readonly scheduler: Scheduler;
  private readonly base: URL;
  private readonly fetchImpl: typeof fetch;
  private readonly timer: Timer;
  private readonly svc: string;
  private readonly account: string;
  private readonly random: () => number;
  private sent = 0;

  constructor(private readonly opts: ApiClientOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, ''));
    this.fetchImpl = opts.fetch ?? fetch;
    this.timer = opts.timer ?? realTimer;
    this.clock = opts.clock ?? new ServerClock(this.timer);
    this.scheduler = opts.scheduler ?? new Scheduler({ timer: this.timer, limitsOff: opts.limitsOff });
    this.svc = opts.svc ?? 'Svc';
    this.account = opts.account ?? `key-${createHash('sha256').update(opts.credentials.key).digest('hex').slice(0, 12)}`;
    this.random = opts.random ?? Math.random;
  }

  get origin(): string {
    return this.base.origin;
  }

  /** HTTP requests this client has sent (retries and clock syncs included). */
  get requestCount(): number {
    return this.sent;
  }

  /**
   * Sends `req` and checks the answer against the schema of the record it should hold, where it arrives:
   * a missing or mistyped field the desk uses is refused with the endpoint and the field named, before
   * anything reads it (a relay or a changed exchange must not put `undefined` on the operator's screen).
   */
  async request<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>> {
    const { data } = await this.exchange(req);
    const checked = schema.safeParse(data);
    if (!checked.success) throw AnswerShapeError.from(`${req.method} ${req.path}`, this.base.origin, data, checked.error.issues[0]!);
    return checked.data;
  }

  /**
   * Sends a read whose answer is a list of `record`s and checks each record on its own: one malformed
   * record among a thousand is set aside with its id, field and problem, and the others are kept (an odd
   * record from a live exchange must not blank a whole page). An answer that is not a list at all is
   * still refused, as `request` refuses it.
   */
  async requestList<S extends z.ZodType>(req: ApiRequest, record: S, opts: ListOptions = {}): Promise<ListAnswer<z.output<S>>> {
    const endpoint = `${req.method} ${req.path}`;
    const { data } = await this.exchange(req);
    if (!Array.isArray(data)) throw new AnswerShapeError(endpoint, 'answer', 'is not a list', this.base.origin);
    opts.onSent?.(data.length);
    const records: Array<z.output<S>> = [];
    const unread: UnreadRecord[] = [];
    for (let i = 0; i < data.length; i++) {
      // A page of 1,000 records is checked in steps, letting what the window asks meanwhile be answered
      // between them, whatever the read's priority: the start-up's reconciliation (a visible read) held a
      // new process's event loop 30-185 ms a page, and the window's first files and reads behind it (docs/performance.md §Opening the desk).
      if (i > 0 && i % CHECK_STEP === 0) {
        await new Promise((r) => setImmediate(r));
        if (req.priority === 'background' && this.opts.windowFirst) await this.opts.windowFirst.giveWay();
      }
      const raw: unknown = data[i];
      const checked = record.safeParse(raw);
      if (checked.success) {
        records.push(checked.data);
        continue;
      }
      const e = AnswerShapeError.from(endpoint, this.base.origin, raw, checked.error.issues[0]!);
      unread.push({ endpoint, record: recordName(raw, i), field: e.field, problem: e.problem });
    }
    this.opts.onUnread?.(req, unread);
    return { records, unread, sent: data.length, origin: this.base.origin };
  }

  /**
   * Sends through the scheduler. Reads retry on 5xx, timeouts, network failures and 429 with jittered
   * backoff. Writes are sent once: the write executor decides what an ambiguous failure means. The one
   * exception is REQUEST_EXPIRED, which proves the request was refused unread: after one clock resync it
   * is sent once more, write or not, so a desktop clock minutes off never reaches the operator.
   */
  async exchange(req: ApiRequest): Promise<ApiResponse<unknown>> {
    if (req.priority === 'background' && this.opts.windowFirst) await this.opts.windowFirst.giveWay();
    try {
      return await this.attempts(req);
    } catch (e) {
      if (e instanceof ExchangeError) this.opts.onRefusal?.(e.label, req.method, req.path);
      throw e;
    }
  }

  private async attempts(req: ApiRequest): Promise<ApiResponse<unknown>> {
    const isRead = req.method === 'GET';
    const maxAttempts = isRead ? (this.opts.maxReadAttempts ?? 4) : 1;
    let resynced = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(req);
      } catch (e) {
        if (!resynced && req.signed !== false && e instanceof ExchangeError && e.label === 'REQUEST_EXPIRED') {
          resynced = true;
          attempt--;
          await this.syncClock(req.priority ?? 'visible').catch(() => {
            // The refused answer's X-In-Time has already moved the offset; retry with that.
          });
          continue;
        }
        if (!isRead || attempt >= maxAttempts || !isRetryableRead(e)) throw e;
        // A 429 has paused its bucket until the reset time; the scheduler does that wait.
        const wait = e instanceof ExchangeError && e.status === 429 ? 0 : backoffMs(attempt, this.random);
        if (wait > 0) await sleep(this.timer, wait);
      }
    }
  }

  /**
   * Learns the server's clock from GET /spot/time. The spec names the endpoint without a shape (§4.4);
   * the live service answers {"server_time": <epoch ms>} (gateio/gateapi-java docs/SystemTime.md:
   * "serverTime, Long, Server current time(ms)", wire name server_time as in the API v4 docs'
   * getSystemTime example `{"server_time": 1597026383085}`). Seconds are accepted too, told apart by size.
   */
  async syncClock(priority: Priority = 'action'): Promise<void> {
    const sentAt = this.timer.now();
    const res = await this.once({ method: 'GET', path: '/spot/time', signed: false, priority });
    const receivedAt = this.timer.now();
    const raw = (res.data as { server_time?: unknown } | null | undefined)?.server_time;
    const ms = epochMsFromAnyUnit(typeof raw === 'number' || typeof raw === 'string' ? String(raw) : undefined);
    if (ms === undefined) throw new NetworkError(`${this.base.origin} answered /spot/time without a server_time`);
    this.clock.observe(ms, sentAt, receivedAt, true);
  }

  private async once(req: ApiRequest): Promise<ApiResponse<unknown>> {
    if (this.opts.keyless) throw this.opts.keyless();
    const ticket = await this.scheduler.acquire(bucketFor(req.method, req.path), this.account, req.priority ?? 'visible');
    let feedback: Feedback = {};
    try {
      const { res, text, sentAt, receivedAt } = await this.sendNoting(req);
      feedback = this.learn(res.headers, sentAt, receivedAt, res.status === 429);
      return this.interpret(res, text, feedback.resetAt);
    } finally {
      ticket.release(feedback);
    }
  }

  /** Sends, and tells the link's listener whether anything came back. */
  private async sendNoting(req: ApiRequest): Promise<{ res: Response; text: string; sentAt: number; receivedAt: number }> {
    try {
      const sent = await this.send(req);
      this.opts.onLink?.({ answered: true });
      return sent;
    } catch (e) {
      this.opts.onLink?.({ answered: false, timedOut: e instanceof NetworkError && e.timedOut });
      throw e;
    }
  }

  private async send(req: ApiRequest): Promise<{ res: Response; text: string; sentAt: number; receivedAt: number }> {
    const { sent, signed } = encodeQuery(req.query ?? []);
    const fullPath = `${this.base.pathname.replace(/\/$/, '')}${req.path}`;
    const url = `${this.base.origin}${fullPath}${sent ? `?${sent}` : ''}`;
    const body = req.body === undefined ? '' : JSON.stringify(req.body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body) headers['Content-Type'] = 'application/json';
    if (req.signed !== false) {
      // Signed when it leaves the queue, not when it entered: a queued request keeps a fresh Timestamp.
      const ts = this.clock.timestamp();
      headers.KEY = this.opts.credentials.key;
      headers.Timestamp = ts;
      headers.SIGN = sign(this.opts.credentials.secret, req.method, fullPath, signed, body, ts);
    }
    const where = `${req.method} ${req.path} at ${this.base.origin}`;
    const ownTimeoutMs = this.opts.timeoutMs ?? 15_000;
    const left = req.deadline === undefined ? Infinity : req.deadline - this.timer.now();
    if (left <= 0) throw new DeadlinePassedError(`${where} was not sent: its deadline passed while it waited in the queue`);
    const held = req.heldBy?.() ?? null;
    if (held !== null) throw new HeldBackError(`${where} was not sent: ${held}`);
    const timeoutMs = Math.min(ownTimeoutMs, left);
    const abort = new AbortController();
    let timedOut = false;
    const timeout = this.timer.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    const sentAt = this.timer.now();
    this.sent++;
    try {
      const res = await this.fetchImpl(url, { method: req.method, headers, body: body || undefined, signal: abort.signal });
      const text = await res.text();
      return { res, text, sentAt, receivedAt: this.timer.now() };
    } catch (e) {
      const why = timedOut ? `no answer within ${timeoutMs} ms` : `the connection failed (${errorCode(e)})`;
      throw new NetworkError(`${where}: ${why}`, e, { timedOut, origin: this.base.origin });
    } finally {
      this.timer.clearTimeout(timeout);
    }
  }

  /** Reads the clock and rate-limit headers (§4.3) of any answer, error or not. */
  private learn(h: Headers, sentAt: number, receivedAt: number, tooMany: boolean): Feedback {
    const inTime = epochMsFromAnyUnit(h.get('X-In-Time'));
    if (inTime !== undefined) this.clock.observe(inTime, sentAt, receivedAt);
    const prefix = `X-${this.svc}-RateLimit-`;
    const int = (name: string): number | undefined => {
      const v = h.get(prefix + name);
      if (v === null || !/^\d+$/.test(v.trim())) return undefined;
      return Number(v);
    };
    const resetServerMs = epochMsFromAnyUnit(h.get(`${prefix}Reset-Timestamp`));
    return {
      limit: int('Limit'),
      remain: int('Requests-Remain'),
      resetAt: resetServerMs === undefined ? undefined : this.clock.toLocal(resetServerMs),
      tooMany,
    };
  }

  private interpret(res: Response, text: string, resetAt: number | undefined): ApiResponse<unknown> {
    if (res.ok) {
      if (!text) return { status: res.status, data: undefined, headers: res.headers };
      try {
        return { status: res.status, data: JSON.parse(text) as unknown, headers: res.headers };
      } catch {
        throw new NetworkError(`${this.base.origin} answered ${res.status} with a body that is not JSON`, undefined, {
          status: res.status,
          origin: this.base.origin,
        });
      }
    }
    let parsed: ReturnType<typeof ErrorBody.safeParse> | undefined;
    try {
      parsed = ErrorBody.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) {
      const retryAt = res.status === 429 ? resetAt : undefined;
      throw new ExchangeError(res.status, parsed.data.label, parsed.data.message ?? parsed.data.detail ?? '', retryAt);
    }
    throw new NetworkError(`${this.base.origin} answered HTTP ${res.status} without an error label`, undefined, {
      status: res.status,
      origin: this.base.origin,
    });
  }
}

function errorCode(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown } })?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return (e as Error)?.name ?? 'error';
}
