import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { authenticate, requirePermission, type Caller } from './auth.ts';
import type { DB } from './db.ts';
import { ApiError } from './errors.ts';
import type { PermissionGroup } from './world.ts';

export const API_PREFIX = '/api/v4';

export interface Ctx {
  db: DB;
  caller: Caller;
  /** Query parameters, decoded; a repeated name keeps its first value. */
  query: Map<string, string>;
  params: Record<string, string>;
  body: unknown;
  nowSec: number;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  /** Path below /api/v4, in fastify's syntax (":id" for a parameter). */
  path: string;
  /** Public routes need no signature; private routes check it and the permission group. */
  group: PermissionGroup | 'public';
  status?: number;
  handler: (ctx: Ctx) => unknown;
}

export interface ServerOptions {
  db: DB;
  routes: RouteDef[];
  /** Seconds since the epoch; the admin API may move it. */
  clock: () => number;
}

/** Public routes run without a key; nothing in them may read the caller's account. */
const PUBLIC_CALLER: Caller = Object.freeze({
  key: '', uid: '', mainUid: '', isSub: false,
  perms: { spot: 'none', futures: 'none', delivery: 'none', wallet: 'none', withdraw: 'none', unified: false },
} satisfies Caller);

function splitUrl(url: string): { path: string; rawQuery: string } {
  const i = url.indexOf('?');
  return i < 0 ? { path: url, rawQuery: '' } : { path: url.slice(0, i), rawQuery: url.slice(i + 1) };
}

function parseQuery(raw: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(raw)) if (!out.has(k)) out.set(k, v);
  return out;
}

function parseBody(req: FastifyRequest, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError('INVALID_CONTENT_TYPE', `Content-Type must be application/json, got ${type || 'none'}`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('INVALID_REQUEST_BODY', 'request body is not valid JSON');
  }
}

function micros(): string {
  return String(BigInt(Date.now()) * 1000n + BigInt(Math.floor((performance.now() % 1) * 1000)));
}

function sendError(reply: FastifyReply, err: ApiError): void {
  void reply.code(err.status).send({ label: err.label, message: err.message });
}

export function buildServer(opts: ServerOptions): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
  app.removeAllContentTypeParsers();
  // Every body is read as bytes: the signature covers the exact bytes sent (§5.8).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-In-Time', micros());
    reply.header('X-Svc-Trace-ID', randomUUID().replace(/-/g, ''));
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Out-Time', micros());
    return payload;
  });

  const known = new Map<string, Set<string>>();
  for (const r of opts.routes) {
    const url = API_PREFIX + r.path;
    known.set(url, (known.get(url) ?? new Set()).add(r.method));
    app.route({
      method: r.method,
      url,
      handler: async (req, reply) => {
        const { path, rawQuery } = splitUrl(req.raw.url ?? '');
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const nowSec = opts.clock();
        let caller = PUBLIC_CALLER;
        if (r.group !== 'public') {
          caller = authenticate(opts.db, { method: req.method, path, rawQuery, body: raw, headers: req.headers, ip: req.ip, nowSec });
          requirePermission(caller, r.group, req.method);
        }
        const body = parseBody(req, raw);
        const result = r.handler({ db: opts.db, caller, query: parseQuery(rawQuery), params: req.params as Record<string, string>, body, nowSec });
        return reply.code(r.status ?? 200).send(result);
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const { path } = splitUrl(req.raw.url ?? '');
    const routeMatches = [...known.keys()].some((u) => new RegExp(`^${u.replace(/:[^/]+/g, '[^/]+')}$`).test(path));
    if (routeMatches) sendError(reply, new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}`));
    else sendError(reply, new ApiError('NOT_FOUND', `no such path: ${path}`));
  });

  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof ApiError) return sendError(reply, error);
    const err = error as { code?: string; message?: string; statusCode?: number };
    const code = err.code ?? '';
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(reply, new ApiError('INVALID_REQUEST_BODY', 'request body is too large'));
    if (code.startsWith('FST_ERR_CTP')) return sendError(reply, new ApiError('INVALID_REQUEST_BODY', err.message ?? 'unreadable body'));
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) return sendError(reply, new ApiError('BAD_REQUEST', err.message ?? 'bad request', status));
    return sendError(reply, new ApiError('INTERNAL', 'internal error'));
  });

  return app;
}
