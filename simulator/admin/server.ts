import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { writeHeld, type DB } from '../db.ts';
import { ApiError } from '../errors.ts';
import type { SandboxOptions } from '../options.ts';
import type { AdminRouteDef } from './types.ts';

// The admin API: test and benchmark control of the Sandbox, beside the exchange API on the same port
// but under its own prefix, reachable from loopback only and with a bearer token.

export const ADMIN_PREFIX = '/admin/v1';

export interface AdminMount {
  db: DB;
  clock: Clock;
  options: SandboxOptions;
  token: string;
  routes: AdminRouteDef[];
  /** Runs after every admin call that is not a GET (caches of keys and balances must forget). */
  onChange?: () => void;
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseAdminBody(req: FastifyRequest): unknown {
  const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
  if (!raw || raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('INVALID_REQUEST_BODY', 'admin request body is not valid JSON');
  }
}

function fail(reply: FastifyReply, e: ApiError): FastifyReply {
  return reply.code(e.status).send({ label: e.label, message: e.message });
}

export function mountAdmin(app: FastifyInstance, m: AdminMount): void {
  for (const r of m.routes) {
    app.route({
      method: r.method,
      url: ADMIN_PREFIX + r.path,
      handler: async (req, reply) => {
        if (!isLoopback(req.ip)) return fail(reply, new ApiError('FORBIDDEN', 'the admin API answers loopback only', 403));
        if (!tokenMatches(req.headers.authorization, m.token)) {
          return fail(reply, new ApiError('INVALID_CREDENTIALS', 'Authorization: Bearer <admin_token> required'));
        }
        const query = new Map<string, string>();
        const q = (req.raw.url ?? '').indexOf('?');
        if (q >= 0) for (const [k, v] of new URLSearchParams((req.raw.url ?? '').slice(q + 1))) if (!query.has(k)) query.set(k, v);
        const body = parseAdminBody(req);
        writeHeld(m.db);
        const result = await r.handler({
          db: m.db,
          clock: m.clock,
          options: m.options,
          query,
          params: req.params as Record<string, string>,
          body,
        });
        if (r.method !== 'GET') m.onChange?.();
        return reply.code(200).send(result ?? { ok: true });
      },
    });
  }
}
