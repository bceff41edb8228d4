import { readFile } from 'node:fs/promises';
import { CONTENT_SECURITY_POLICY } from './csp.ts';
import { realRoot, resolveStatic } from './staticFiles.ts';

// The window loads the app from app://desk/ rather than file:// (Electron security checklist, item 18):
// a standard, secure scheme that serves the build folder and nothing else, with the same CSP as the web
// host. file:// would give the page the whole file system as its origin.

export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://desk';
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;
/** The confirmation window's page: a second entry of the same build, reached only by its own window. */
export const APP_CONFIRM_URL = `${APP_ORIGIN}/confirm.html`;

export interface ProtocolLike {
  registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>): void;
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void;
}

/** Must run before the app is ready (Electron's rule for privileged schemes). */
export function registerAppScheme(protocol: Pick<ProtocolLike, 'registerSchemesAsPrivileged'>): void {
  // standard: origins and relative URLs work as on the web; secure: treated like https (no mixed content);
  // codeCache: V8 keeps the compiled renderer between starts, so a later start parses no script again
  // before the first paint (docs/performance.md §Opening the desk; Electron's CustomScheme, needs standard).
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, codeCache: true } }]);
}

function answer(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
  });
}

/** Serves only files of `buildDir`, only to app://desk/, always with the CSP. */
export function appRequestHandler(buildDir: string): (request: Request) => Promise<Response> {
  const root = realRoot(buildDir);
  return async (request) => {
    const url = new URL(request.url);
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== new URL(APP_ORIGIN).host) return answer(404, 'not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'method not allowed');
    const found = await resolveStatic(await root, url.pathname);
    if (!found.ok) return answer(found.status, found.message);
    try {
      const data = await readFile(found.path);
      return new Response(request.method === 'HEAD' ? null : data, {
        status: 200,
        headers: { 'Content-Type': found.type, 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' },
      });
    } catch {
      return answer(404, 'not found');
    }
  };
}

export function serveApp(protocol: Pick<ProtocolLike, 'handle'>, buildDir: string): void {
  protocol.handle(APP_SCHEME, appRequestHandler(buildDir));
}
