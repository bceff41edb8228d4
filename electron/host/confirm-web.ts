import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { CONFIRM_EVENT } from '../../shared/confirm.ts';
import type { ConfirmCore } from '../core/core.ts';
import { bearerMatches } from './bearer.ts';
import { CONTENT_SECURITY_POLICY } from './csp.ts';
import { decodePath, MALFORMED_ESCAPE } from './staticFiles.ts';

// The confirmation page under the web host: its own loopback server, port and token, so it is another
// origin than the main page. The main page's scripts cannot read or script it (the same-origin policy),
// cannot frame it (X-Frame-Options DENY, frame-ancestors 'none'), and cannot call its channels (they need
// this server's token, which the main page never sees, and a request from another origin is refused).
// The main server serves none of these channels. What this does not protect is said in the README.

export interface ConfirmHost {
  url: string;
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

function headers(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  headers(res);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const refuse = (res: ServerResponse, status: number, message: string): void =>
  json(res, status, { ok: false, error: { kind: 'invalid_request', message } });

async function body(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) return null;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startConfirmHost(opts: { core: ConfirmCore; staticDir: string; port?: number }): Promise<ConfirmHost> {
  const token = randomBytes(32).toString('base64url');
  const root = normalize(opts.staticDir);
  let origin = '';
  const authorized = (req: IncomingMessage): boolean => bearerMatches(req.headers.authorization, token);
  const sameOrigin = (req: IncomingMessage): boolean => req.headers.origin === undefined || req.headers.origin === origin;

  async function serveStatic(res: ServerResponse, pathname: string): Promise<void> {
    // Only the confirmation page and its assets: this origin never serves the main app.
    const rel = pathname === '/' ? '/confirm.html' : decodePath(pathname);
    if (rel === null) return refuse(res, 400, MALFORMED_ESCAPE);
    if (rel !== '/confirm.html' && !rel.startsWith('/assets/')) return refuse(res, 404, 'not found');
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep)) return refuse(res, 404, 'not found');
    try {
      const data = await readFile(file);
      headers(res);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    } catch {
      refuse(res, 404, 'not found');
    }
  }

  async function serveRpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return refuse(res, 405, 'calls use POST');
    if (!sameOrigin(req)) return refuse(res, 403, 'requests from other origins are refused');
    if (!authorized(req)) return refuse(res, 401, 'missing or wrong confirmation token');
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return refuse(res, 415, 'calls must be application/json');
    const text = await body(req);
    if (text === null) return refuse(res, 413, 'request body is too large');
    let payload: unknown;
    try {
      payload = text ? JSON.parse(text) : {};
    } catch {
      return refuse(res, 400, 'request body is not valid JSON');
    }
    json(res, 200, await opts.core.invokeConfirm(channel, payload));
  }

  function serveEvents(req: IncomingMessage, res: ServerResponse): void {
    if (!sameOrigin(req)) return refuse(res, 403, 'requests from other origins are refused');
    if (!authorized(req)) return refuse(res, 401, 'missing or wrong confirmation token');
    headers(res);
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write(': confirmation events\n\n');
    const off = opts.core.subscribeConfirm(() => res.write(`event: ${CONFIRM_EVENT}\ndata: {}\n\n`));
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
    req.on('close', () => {
      clearInterval(keepAlive);
      off();
    });
  }

  const server = createServer((req, res) => {
    if (req.headers.host !== new URL(origin).host) return refuse(res, 421, 'wrong Host header');
    const { pathname } = new URL(req.url ?? '/', origin);
    const done =
      pathname === '/events'
        ? Promise.resolve(serveEvents(req, res))
        : pathname.startsWith('/rpc/')
          ? serveRpc(req, res, pathname.slice(5))
          : req.method === 'GET'
            ? serveStatic(res, pathname)
            : Promise.resolve(refuse(res, 405, 'method not allowed'));
    done.catch(() => (res.headersSent ? res.destroy() : refuse(res, 500, 'confirmation host error')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
