import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A relay between the desk and the Sandbox, as a network would sit there: it passes every request on
// and every answer back, except that for the requests `drop` picks it lets the exchange apply the
// request, reads its whole answer, and then cuts the connection to the desk without a byte of it.

export interface DropRelay {
  /** The relay's base address (same path as the Sandbox's). */
  baseUrl: string;
  /** Requests whose answer was dropped, as `METHOD path`. */
  dropped: string[];
  close(): Promise<void>;
}

export async function dropRelay(target: string, drop: (method: string, path: string) => boolean): Promise<DropRelay> {
  const to = new URL(target);
  const dropped: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const cut = drop(req.method ?? '', path);
      const headers = { ...req.headers, host: to.host };
      const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer: IncomingMessage) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          if (cut) {
            dropped.push(`${req.method} ${path}`);
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
        });
      });
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${to.pathname}`,
    dropped,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
