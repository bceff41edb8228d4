import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Core } from '../core/core.ts';
import { bearerMatches } from './bearer.ts';
import { CONTENT_SECURITY_POLICY } from './csp.ts';
import { builtFile, readBuild, realRoot } from './staticFiles.ts';
import { warmHttpClient } from './warmHttpClient.ts';

// The web host: the same app and contract as the Electron host, for machines without an Electron
// binary and for browser tests. Loopback only, a random port (or the one of the last start, see
// portFile), and a random token required on every call; the token travels in the URL fragment, which
// browsers never send to a server or a referrer.

export interface WebHost {
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

export interface WebHostOptions {
  core: Core;
  /** The built renderer (vite's output). */
  staticDir: string;
  port?: number;
  /**
   * Where the port is kept between starts (`npm start`: in the data folder). The host listens on the
   * same port again when it is free, so that the browser's cache of the app's files, which is kept per
   * origin, serves the next start too (docs/performance.md §Opening the desk); on another port when it is taken.
   */
  portFile?: string;
}

/** Vite's output names every file under assets/ by its content: a file there never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function keptPort(file: string | undefined): Promise<number> {
  if (!file) return 0;
  try {
    const port = Number((await readFile(file, 'utf8')).trim());
    return Number.isInteger(port) && port >= 1024 && port <= 65535 ? port : 0;
  } catch {
    return 0;
  }
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const MAX_BODY = 1 << 20;
function securityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  securityHeaders(res);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { ok: false, error: { kind: 'invalid_request', message } });
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const token = randomBytes(32).toString('base64url');
  let origin = '';
  const build = readBuild(await realRoot(opts.staticDir));

  function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    const found = builtFile(build, pathname);
    if (!found.ok) return refuse(res, found.status, found.message);
    securityHeaders(res);
    if (pathname.startsWith('/assets/')) res.setHeader('Cache-Control', IMMUTABLE);
    res.writeHead(200, { 'Content-Type': found.file.type });
    res.end(req.method === 'HEAD' ? undefined : found.file.data);
  }

  async function serveRpc(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return refuse(res, 405, 'calls use POST');
    // A browser always sends Origin on a cross-origin POST; anything but our own page is refused.
    if (req.headers.origin !== undefined && req.headers.origin !== origin)
      return refuse(res, 403, 'requests from other origins are refused');
    if (!bearerMatches(req.headers.authorization, token)) return refuse(res, 401, 'missing or wrong desk token');
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return refuse(res, 415, 'calls must be application/json');
    const text = await readBody(req);
    if (text === null) {
      res.setHeader('Connection', 'close');
      return refuse(res, 413, 'request body is larger than 1 MiB');
    }
    let payload: unknown;
    try {
      payload = text ? JSON.parse(text) : {};
    } catch {
      return refuse(res, 400, 'request body is not valid JSON');
    }
    sendJson(res, 200, await opts.core.invoke(channel, payload));
  }

  /** Core events as server-sent events, on a stream opened with the token in a header (not the URL). */
  function serveEvents(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET') return refuse(res, 405, 'events use GET');
    if (req.headers.origin !== undefined && req.headers.origin !== origin)
      return refuse(res, 403, 'requests from other origins are refused');
    if (!bearerMatches(req.headers.authorization, token)) return refuse(res, 401, 'missing or wrong desk token');
    securityHeaders(res);
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write(': desk events\n\n');
    const unsubscribe = opts.core.subscribe((event, payload) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
    req.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
    });
  }

  const server: Server = createServer((req, res) => {
    // Refuse DNS-rebinding: the page must be addressed as the loopback address we listen on.
    if (req.headers.host !== new URL(origin).host) return refuse(res, 421, 'wrong Host header');
    const { pathname } = new URL(req.url ?? '/', origin);
    if (pathname === '/events') return serveEvents(req, res);
    const handled = pathname.startsWith('/rpc/')
      ? serveRpc(req, res, pathname.slice('/rpc/'.length))
      : req.method === 'GET' || req.method === 'HEAD'
        ? Promise.resolve(serveStatic(req, res, pathname))
        : Promise.resolve(refuse(res, 405, 'method not allowed'));
    handled.catch(() => {
      if (!res.headersSent) refuse(res, 500, 'web host error');
      else res.destroy();
    });
  });

  const kept = opts.port ?? (await keptPort(opts.portFile));
  try {
    await listen(server, kept);
  } catch (e) {
    if (kept === 0 || opts.port !== undefined || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    await listen(server, 0);
  }
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  // Not being able to keep it only costs the next start its cache.
  if (opts.portFile && port !== kept) await writeFile(opts.portFile, `${port}\n`).catch(() => {});
  await warmHttpClient(origin);

  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
