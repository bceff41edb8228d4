import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { bucketFor, type BucketRef } from '../shared/api/rateLimits.ts';
import { readBody } from './bodyReader.ts';
import { authenticate, keyOf, KeyStore, requirePermission, type Caller, type RouteGroup } from './auth.ts';
import { Clock } from './clock.ts';
import { afterCommit, writeHeld, type DB } from './db.ts';
import { ApiError } from './errors.ts';
import { Faults, type FaultPlan } from './faults.ts';
import { RateLimiter } from './limits.ts';
import { micros, unixText } from './wireTime.ts';

export const API_PREFIX = '/api/v4';

export interface Ctx {
  db: DB;
  caller: Caller;
  /** Query parameters, decoded; a repeated name keeps its first value. */
  query: ReadonlyMap<string, string>;
  params: Record<string, string>;
  body: unknown;
  /** The server's time for this request (seconds, with decimals; includes an injected skew). */
  nowSec: number;
  /** Source address of the request. */
  ip: string;
  /** The key cache, for handlers that change keys or locks (they must invalidate it). */
  keys: KeyStore;
}

/**
 * A handler's answer already serialized (a cached read, §2.9): written as it is, so that a cache hit
 * does not pay JSON.stringify again.
 */
export class JsonText {
  /** Its length in UTF-8 bytes (the Content-Length), counted once. */
  readonly bytes: number;
  constructor(readonly text: string) {
    this.bytes = Buffer.byteLength(text);
  }
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** Path below /api/v4, in fastify's syntax (":id" for a parameter). */
  path: string;
  /** Public routes need no signature; private routes check it and the permission group (§5.2). */
  group: RouteGroup | 'public';
  status?: number;
  /**
   * Narrows the rate-limit bucket by a value of the request (§8.2 counts spot placement "per UID and
   * market"): the market named in the body. Only consulted while limits are on.
   */
  bucketSuffix?: (body: RequestBody) => string;
  /**
   * The handler adds to the open batch's held balance changes (writeHeld in db.ts) and reads none of
   * them from the store, so they need not be written before it runs: spot placement.
   */
  holdsWrites?: boolean;
  handler: (ctx: Ctx) => unknown;
}

export interface ServerOptions {
  db: DB;
  routes: RouteDef[];
  /** The Sandbox's clock (a function of seconds is accepted too, for older callers). */
  clock: Clock | (() => number);
  /** Rolling-window limits (§8.2); a new enabled one when omitted. */
  limiter?: RateLimiter;
  faults?: Faults;
  keys?: KeyStore;
}

/** Public routes run without a key; nothing in them may read the caller's account. */
const PUBLIC_CALLER: Caller = Object.freeze({
  key: '',
  uid: '',
  mainUid: '',
  isSub: false,
  perms: { spot: 'none', futures: 'none', delivery: 'none', wallet: 'none', withdraw: 'none', unified: false },
} satisfies Caller);

/** Per-request state, filled in onRequest. */
interface Pending {
  path: string;
  /** Path below /api/v4. */
  sub: string;
  rawQuery: string;
  nowSec: number;
  /** Seconds added by skew faults. */
  skew: number;
  /** The §4.3 header values decided on arrival; the answer adds X-Out-Time. */
  inTime: string;
  traceId: string;
  remain: string;
  limit: string;
  reset: string;
}

/** The §4.3 headers (lower-case names, as Node writes them). */
function svcHeaders(st: Pending, outTime: string): Record<string, string> {
  return {
    'x-in-time': st.inTime,
    'x-svc-trace-id': st.traceId,
    'x-svc-ratelimit-requests-remain': st.remain,
    'x-svc-ratelimit-limit': st.limit,
    'x-svc-ratelimit-reset-timestamp': st.reset,
    'x-out-time': outTime,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    sandbox: Pending | null;
  }
}

/** The query of a request without one; handlers only read ctx.query. */
const NO_QUERY: ReadonlyMap<string, string> = new Map();

function parseQuery(raw: string): ReadonlyMap<string, string> {
  if (raw === '') return NO_QUERY;
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(raw)) if (!out.has(k)) out.set(k, v);
  return out;
}

/**
 * A request's body bytes, read as JSON at most once: the rate limiter may look into it (RouteDef.bucketSuffix)
 * before the handler does, and a second JSON.parse of an order's body cost as much as its HMAC.
 */
export class RequestBody {
  private state: 'unread' | 'json' | 'not-json' = 'unread';
  private value: unknown;

  constructor(readonly raw: Buffer) {}

  /** The body's JSON value; undefined for an empty body or one that is not JSON. */
  json(): unknown {
    if (this.state === 'unread') {
      this.state = 'not-json';
      if (this.raw.length > 0) {
        try {
          this.value = JSON.parse(this.raw.toString('utf8'));
          this.state = 'json';
        } catch {
          // Answered as INVALID_REQUEST_BODY by parseBody, after authentication.
        }
      }
    }
    return this.value;
  }

  get isJson(): boolean {
    this.json();
    return this.state === 'json';
  }
}

/** Every request without a body (GET and DELETE among them) shares one: it has nothing to parse. */
const NO_BODY = new RequestBody(Buffer.alloc(0));

function parseBody(req: FastifyRequest, body: RequestBody): unknown {
  if (body.raw.length === 0) return undefined;
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError('INVALID_CONTENT_TYPE', `Content-Type must be application/json, got ${type.slice(0, 80) || 'none'}`);
  }
  if (!body.isJson) throw new ApiError('INVALID_REQUEST_BODY', 'request body is not valid JSON');
  return body.json();
}

// §1: responses are JSON. An Accept header that rules JSON out gets NOT_ACCEPTABLE; none at all is fine.
function acceptsJson(accept: string | undefined): boolean {
  if (!accept || accept === 'application/json') return true;
  for (const part of accept.split(',')) {
    const media = part.split(';')[0]!.trim().toLowerCase();
    if (media === '' || media === '*/*' || media === 'application/*' || media === 'application/json') return true;
  }
  return false;
}

const TRACE_PREFIX = randomBytes(6).toString('hex');
let traceSeq = 0;
function traceId(): string {
  traceSeq = (traceSeq + 1) % 0x1000000000000;
  return TRACE_PREFIX + traceSeq.toString(16).padStart(12, '0');
}

function stampHeaders(reply: FastifyReply, clock: Clock): void {
  const st = reply.request.sandbox;
  if (!st) return;
  reply.headers(svcHeaders(st, micros(clock.now() + st.skew)));
}

const EMPTY = Buffer.alloc(0);

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export function buildServer(opts: ServerOptions): FastifyInstance {
  const clock = opts.clock instanceof Clock ? opts.clock : fnClock(opts.clock);
  const limiter = opts.limiter ?? new RateLimiter(() => clock.now() * 1000);
  const faults = opts.faults ?? new Faults();
  const keys = opts.keys ?? new KeyStore(opts.db);
  // Sockets held open by timeout_after_commit faults: closed when the server closes.
  const hanging = new Set<{ timer: NodeJS.Timeout; destroy: () => void }>();

  const sendError = (reply: FastifyReply, err: ApiError): void => {
    stampHeaders(reply, clock);
    void reply.code(err.status).send({ label: err.label, message: err.message });
  };
  const underApi = (req: FastifyRequest) => (req.raw.url ?? '').startsWith(API_PREFIX);

  const app = Fastify({
    logger: false,
    exposeHeadRoutes: false,
    forceCloseConnections: true,
    return503OnClosing: false,
    // Requests Node's HTTP parser cannot read never reach a route: answer them in the §7 shape too.
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const body = JSON.stringify({ label: 'BAD_REQUEST', message: `unreadable HTTP request (${err.code ?? 'parse error'})` });
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 400 Bad Request\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
        );
      }
      socket.destroy();
    },
    // URLs the router cannot decode (a lone %) never reach the hooks: answer them here, counted too.
    frameworkErrors: (error, req, reply) => {
      if (underApi(req) && !req.sandbox && !admit(req, reply, undefined, undefined)) return;
      sendError(reply, new ApiError('BAD_REQUEST', error.message.slice(0, 200)));
    },
  });
  app.decorateRequest('sandbox', null);
  app.removeAllContentTypeParsers();
  // Every body is read as bytes (bodyReader.ts). JSON is named as well as '*': fastify caches the parser
  // it finds for a Content-Type only when it finds it by name, and parsed the header of every request
  // that fell through to '*'.
  app.addContentTypeParser('application/json', readBody);
  app.addContentTypeParser('*', readBody);

  const unrouted = (method: string, sub: string): BucketRef => {
    // Unknown paths still count (every request does), per IP, in one bucket per rule, so that
    // random paths cannot grow the limiter without bound.
    const b = bucketFor(method, sub);
    return { rule: { ...b.rule, scope: 'ip' }, key: `${b.rule.id}:unrouted` };
  };

  /** Sets the §4.3 headers and counts the request; false when it is over its limit (answered 429). */
  const admit = (
    req: FastifyRequest,
    reply: FastifyReply,
    def: RouteDef | undefined,
    fixed: BucketRef | undefined,
    body?: RequestBody,
  ): boolean => {
    const url = req.raw.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const sub = path.slice(API_PREFIX.length);
    const method = req.method;
    const skew = faults.active ? faults.skewFor(method, sub) : 0;
    // One reading of the clock serves the limiter and X-In-Time.
    const t = clock.now();
    const nowSec = t + skew;
    const bucket = def ? (fixed ?? bucketFor(method, sub)) : unrouted(method, sub);
    let scope = '';
    // With limits off nothing is counted, so the bucket's owner need not be found.
    if (limiter.enabled) {
      if (bucket.rule.scope === 'ip' || !def || def.group === 'public') scope = `ip:${req.ip}`;
      else {
        // A UID bucket counts every request that names a known key, signed well or not (§8.2 counts
        // failures too); a request with no usable key counts against its source address.
        const key = keyOf(req.headers);
        const info = key ? keys.get(key) : undefined;
        scope = info ? info.uid : `ip:${req.ip}`;
      }
    }
    const key = limiter.enabled && def?.bucketSuffix && body ? `${bucket.key}:${def.bucketSuffix(body)}` : bucket.key;
    const d = limiter.check(scope === '' ? key : `${scope}|${key}`, bucket.rule.limit, bucket.rule.windowSec, t * 1000);
    req.sandbox = {
      path,
      sub,
      rawQuery,
      nowSec,
      skew,
      inTime: micros(nowSec),
      traceId: traceId(),
      remain: String(d.remain),
      limit: String(d.limit),
      reset: unixText(d.resetMs, 1e3),
    };
    if (d.allowed) return true;
    sendError(
      reply,
      new ApiError(
        'TOO_MANY_REQUESTS',
        `rate limit ${d.limit} per ${bucket.rule.windowSec}s reached for ${method} ${sub.slice(0, 200)}; retry after ${d.resetMs} (Unix ms)`,
      ),
    );
    return false;
  };

  const known: RegExp[] = [];
  for (const r of opts.routes) {
    const url = API_PREFIX + r.path;
    known.push(new RegExp(`^${url.replace(/[.]/g, '\\.').replace(/:[^/]+/g, '[^/]+')}$`));
    const fixed = r.path.includes(':') ? undefined : bucketFor(r.method, r.path);
    app.route({
      method: r.method,
      url,
      handler: (req, reply) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : EMPTY;
        const body = raw.length === 0 ? NO_BODY : new RequestBody(raw);
        if (!admit(req, reply, r, fixed, body)) return undefined;
        const st = req.sandbox!;
        let caller = PUBLIC_CALLER;
        if (r.group !== 'public') {
          caller = authenticate(keys, {
            method: req.method,
            path: st.path,
            rawQuery: st.rawQuery,
            body: raw,
            headers: req.headers,
            ip: req.ip,
            nowSec: st.nowSec,
          });
          requirePermission(caller, r.group, req.method);
        }
        const plan: FaultPlan = faults.planFor(req.method, st.sub);
        // Synchronous unless a latency fault or the handler itself makes it wait.
        if (plan.latencyMs > 0) return sleep(plan.latencyMs).then(() => run(req, reply, r, st, plan, caller, body));
        return run(req, reply, r, st, plan, caller, body);
      },
    });
  }

  function run(
    req: FastifyRequest,
    reply: FastifyReply,
    r: RouteDef,
    st: Pending,
    plan: FaultPlan,
    caller: Caller,
    body: RequestBody,
  ): undefined | Promise<undefined> {
    if (plan.error) throw plan.error;
    if (!acceptsJson(req.headers.accept)) throw new ApiError('NOT_ACCEPTABLE', 'the Sandbox answers application/json only');
    const json = parseBody(req, body);
    if (r.holdsWrites !== true) writeHeld(opts.db);
    let result: unknown;
    try {
      result = r.handler({
        db: opts.db,
        caller,
        query: parseQuery(st.rawQuery),
        params: req.params as Record<string, string>,
        body: json,
        nowSec: st.nowSec,
        ip: req.ip,
        keys,
      });
    } catch (e) {
      return complete(req, reply, r, st, plan, undefined, e);
    }
    if (result instanceof Promise) {
      return result.then(
        (v) => complete(req, reply, r, st, plan, v, undefined),
        (e) => complete(req, reply, r, st, plan, undefined, e),
      );
    }
    return complete(req, reply, r, st, plan, result, undefined);
  }

  function complete(
    req: FastifyRequest,
    reply: FastifyReply,
    r: RouteDef,
    st: Pending,
    plan: FaultPlan,
    result: unknown,
    failure: unknown,
  ): undefined {
    if (plan.drop || plan.hangMs > 0) {
      // The handler ran and its transaction committed; the client never learns the outcome.
      reply.hijack();
      const socket = req.raw.socket;
      if (plan.drop) socket.destroy();
      else {
        const h = {
          timer: setTimeout(() => {
            hanging.delete(h);
            socket.destroy();
          }, plan.hangMs),
          destroy: () => socket.destroy(),
        };
        hanging.add(h);
      }
      return undefined;
    }
    if (failure !== undefined) throw failure;
    // The hot path writes the answer itself: one header block and one string, without the reply
    // pipeline's hooks and serializer lookups (the benchmark's signed GET spends its time here).
    const json = result instanceof JsonText ? result.text : JSON.stringify(result ?? null);
    const bytes = result instanceof JsonText ? result.bytes : Buffer.byteLength(json);
    reply.hijack();
    afterCommit(opts.db, () => answer(reply, r, st, json, bytes));
    return undefined;
  }

  /** Writes a successful answer: one header block and one string. */
  function answer(reply: FastifyReply, r: RouteDef, st: Pending, json: string, bytes: number): void {
    // The client may have gone while the answer waited for a commit.
    if (reply.raw.destroyed) return;
    if (r.status === 204) return noContent(reply, st);
    // A flat list of names and values: Node takes it as it is, with no object to build and walk.
    reply.raw.writeHead(r.status ?? 200, [
      'x-in-time',
      st.inTime,
      'x-svc-trace-id',
      st.traceId,
      'x-svc-ratelimit-requests-remain',
      st.remain,
      'x-svc-ratelimit-limit',
      st.limit,
      'x-svc-ratelimit-reset-timestamp',
      st.reset,
      'x-out-time',
      micros(clock.now() + st.skew),
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(bytes),
    ]);
    reply.raw.end(json);
  }

  /** 204 has no body (RFC 9110), so neither a Content-Type nor a Content-Length. */
  function noContent(reply: FastifyReply, st: Pending): void {
    reply.raw.writeHead(204, svcHeaders(st, micros(clock.now() + st.skew)));
    reply.raw.end();
  }

  app.setNotFoundHandler((req, reply) => {
    if (underApi(req) && !admit(req, reply, undefined, undefined)) return;
    const path = (req.raw.url ?? '').split('?')[0]!;
    if (known.some((re) => re.test(path)))
      sendError(reply, new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path.slice(0, 200)}`));
    else sendError(reply, new ApiError('NOT_FOUND', `no such path: ${path.slice(0, 200)}`));
  });

  app.setErrorHandler((error, req, reply) => {
    // Errors raised before the handler (an unreadable body) have not been counted yet.
    if (underApi(req) && !req.sandbox && !admit(req, reply, undefined, undefined)) return;
    if (error instanceof ApiError) return sendError(reply, error);
    const err = error as { code?: string; message?: string; statusCode?: number };
    const code = err.code ?? '';
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_CTP_INVALID_TYPE') {
      return sendError(reply, new ApiError('INVALID_CONTENT_TYPE', 'Content-Type must be application/json'));
    }
    if (code.startsWith('FST_ERR_CTP')) return sendError(reply, new ApiError('INVALID_REQUEST_BODY', err.message ?? 'unreadable body'));
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) return sendError(reply, new ApiError('BAD_REQUEST', err.message ?? 'bad request', 400));
    return sendError(reply, new ApiError('INTERNAL', 'internal error'));
  });

  app.addHook('onClose', (_app, done) => {
    for (const h of hanging) {
      clearTimeout(h.timer);
      h.destroy();
    }
    hanging.clear();
    done();
  });

  return app;
}

function fnClock(now: () => number): Clock {
  const c = new Clock();
  c.advance(now() - c.now());
  return c;
}
