import { mulberry32 } from '../../../../shared/random.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// An in-process stand-in for the few endpoints the exactly-once tests need, speaking HTTP so that the
// real client (signing, timeouts, error parsing) sits between it and the executor. It can apply a write
// and then fail to say so, in each way a real network or server can.

/**
 * - drop_after_commit: apply, then cut the connection without an answer.
 * - timeout_after_commit: apply, then never answer (the client's timeout fires).
 * - error_after_commit: apply, then answer 502 with a label.
 * - late_commit: hold the request without answering and apply it a while later (still in flight when
 *   the client gives up: the case the settling time exists for).
 * - drop_before / error_before: fail without applying.
 * - rate_limited: 429 without applying.
 */
export type Fault =
  | 'none'
  | 'drop_after_commit'
  | 'timeout_after_commit'
  | 'error_after_commit'
  | 'late_commit'
  | 'drop_before'
  | 'error_before'
  | 'rate_limited';

export interface FakeWithdrawal {
  id: string;
  withdraw_order_id: string;
  currency: string;
  amount: string;
  address: string;
  chain: string;
  status: string;
  timestamp: string;
  fee: string;
}

export interface FakeOptions {
  /** Decides the fault of each request (after the path is known). */
  fault?: (method: string, path: string) => Fault;
  /** How long a late_commit is held before it is applied. */
  lateCommitMs?: number;
  /** A 4xx refusal for a write body, if any (for example a balance check). */
  refuse?: (path: string, body: Record<string, unknown>) => { label: string; message: string } | null;
  /** Called after each write is applied. */
  onCommit?: (path: string) => void;
}

const WRITE_FAULTS: Fault[] = [
  'drop_after_commit',
  'timeout_after_commit',
  'error_after_commit',
  'late_commit',
  'drop_before',
  'error_before',
  'rate_limited',
];
const READ_FAULTS: Fault[] = ['drop_before', 'error_before', 'rate_limited'];

/** `rate` of requests get a fault, spread evenly over the kinds that fit the method. */
export function randomFaults(rate: number, seed: number): (method: string, path: string) => Fault {
  const rnd = mulberry32(seed);
  return (method) => {
    if (rnd() >= rate) return 'none';
    const kinds = method === 'POST' ? WRITE_FAULTS : READ_FAULTS;
    return kinds[Math.floor(rnd() * kinds.length)]!;
  };
}

export class FaultyExchange {
  readonly withdrawals: FakeWithdrawal[] = [];
  readonly subTransfers = new Map<string, { tx_id: number; body: Record<string, unknown> }>();
  readonly ownTransfers: Array<Record<string, unknown>> = [];
  readonly subToSub: Array<Record<string, unknown>> = [];
  readonly pushes: Array<{
    id: number;
    push_uid: number;
    receive_uid: number;
    currency: string;
    amount: string;
    create_time: number;
    status: string;
  }> = [];
  /** POST requests received per path, whatever became of them. */
  readonly posts = new Map<string, number>();
  readonly faultsApplied = new Map<Fault, number>();
  private nextId = 1000;
  private server: Server | null = null;
  private readonly held = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly opts: FakeOptions = {}) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/v4`;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const res of this.held) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((ok) => (this.server ? this.server.close(() => ok()) : ok()));
  }

  /** Another record with an id already held: what an exchange that accepts a reused id ends up with. */
  duplicateWithdrawal(withdrawOrderId: string): void {
    const w = this.withdrawals.find((x) => x.withdraw_order_id === withdrawOrderId);
    if (!w) throw new Error(`no withdrawal ${withdrawOrderId}`);
    this.withdrawals.push({ ...w, id: `w${this.nextId++}` });
  }

  setStatus(withdrawOrderId: string, status: string): void {
    for (const w of this.withdrawals) if (w.withdraw_order_id === withdrawOrderId) w.status = status;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.replace(/^\/api\/v4/, '');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (!req.headers.key || !req.headers.sign || !req.headers.timestamp) {
      return json(res, 401, { label: 'MISSING_REQUIRED_HEADER', message: 'KEY, SIGN and Timestamp are required' });
    }
    const method = req.method ?? 'GET';
    if (method === 'POST') this.posts.set(path, (this.posts.get(path) ?? 0) + 1);
    const fault = this.opts.fault?.(method, path) ?? 'none';
    if (fault !== 'none') this.faultsApplied.set(fault, (this.faultsApplied.get(fault) ?? 0) + 1);
    if (fault === 'drop_before') return void res.socket?.destroy();
    if (fault === 'error_before') return json(res, 503, { label: 'TOO_BUSY', message: 'try later' });
    if (fault === 'rate_limited') {
      // §4.3: the reset time tells the client's scheduler how long to pause the bucket.
      res.setHeader('X-Svc-RateLimit-Reset-Timestamp', String(Date.now() + 100));
      return json(res, 429, { label: 'TOO_MANY_REQUESTS', message: 'slow down' });
    }

    if (method === 'GET') return this.read(path, url.searchParams, res);
    if (method !== 'POST') return json(res, 405, { label: 'METHOD_NOT_ALLOWED', message: method });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return json(res, 400, { label: 'INVALID_REQUEST_BODY', message: 'not JSON' });
    }
    const refusal = this.opts.refuse?.(path, body);
    if (refusal) return json(res, 400, refusal);

    if (fault === 'late_commit') {
      this.held.add(res);
      const t = setTimeout(() => {
        this.timers.delete(t);
        try {
          this.commit(path, body);
        } catch {
          // A refused late write simply never lands.
        }
        this.held.delete(res);
        res.destroy();
      }, this.opts.lateCommitMs ?? 200);
      this.timers.add(t);
      return;
    }
    let answer: { status: number; body: unknown };
    try {
      answer = { status: 200, body: this.commit(path, body) };
    } catch (e) {
      answer = e as { status: number; body: unknown };
    }
    if (fault === 'drop_after_commit') return void res.socket?.destroy();
    if (fault === 'timeout_after_commit') return void this.held.add(res);
    if (fault === 'error_after_commit') return json(res, 502, { label: 'SERVER_ERROR', message: 'upstream failed' });
    return json(res, answer.status, answer.body);
  }

  private commit(path: string, b: Record<string, unknown>): unknown {
    let out: unknown;
    switch (path) {
      case '/withdrawals': {
        // Like the Sandbox by default: a reused withdraw_order_id is accepted as a new withdrawal.
        const w: FakeWithdrawal = {
          id: `w${this.nextId++}`,
          withdraw_order_id: String(b.withdraw_order_id ?? ''),
          currency: String(b.currency),
          amount: String(b.amount),
          address: String(b.address),
          chain: String(b.chain),
          status: 'REQUEST',
          timestamp: String(Math.floor(Date.now() / 1000)),
          fee: '0',
        };
        this.withdrawals.push(w);
        out = { id: w.id, withdraw_order_id: w.withdraw_order_id, currency: w.currency, amount: w.amount, status: w.status };
        break;
      }
      case '/wallet/sub_account_transfers': {
        const cid = String(b.client_order_id ?? '');
        // §2.5: the client_order_id prevents duplicate transfers.
        if (cid && this.subTransfers.has(cid)) throw { status: 400, body: { label: 'ORDER_EXISTS', message: 'client_order_id used' } };
        const tx = this.nextId++;
        this.subTransfers.set(cid || `anon-${tx}`, { tx_id: tx, body: b });
        out = { tx_id: tx };
        break;
      }
      case '/wallet/transfers':
        this.ownTransfers.push(b);
        out = { tx_id: this.nextId++ };
        break;
      case '/wallet/sub_account_to_sub_account':
        this.subToSub.push(b);
        out = { tx_id: this.nextId++ };
        break;
      case '/withdrawals/push': {
        const id = this.nextId++;
        this.pushes.push({
          id,
          push_uid: 1,
          receive_uid: Number(b.receive_uid),
          currency: String(b.currency),
          amount: String(b.amount),
          create_time: Math.floor(Date.now() / 1000),
          status: 'RECEIVED',
        });
        out = { id };
        break;
      }
      default:
        throw { status: 404, body: { label: 'NOT_FOUND', message: path } };
    }
    this.opts.onCommit?.(path);
    return out;
  }

  private read(path: string, q: URLSearchParams, res: ServerResponse): void {
    if (path === '/wallet/withdrawals') {
      const woid = q.get('withdraw_order_id');
      return json(
        res,
        200,
        this.withdrawals.filter((w) => woid === null || w.withdraw_order_id === woid),
      );
    }
    if (path === '/wallet/order_status') {
      const t = this.subTransfers.get(q.get('client_order_id') ?? '');
      if (!t) return json(res, 404, { label: 'ORDER_NOT_FOUND', message: 'no such transfer' });
      return json(res, 200, { tx_id: String(t.tx_id), status: 'SUCCESS' });
    }
    if (path === '/wallet/push') {
      const from = Number(q.get('from') ?? 0);
      const limit = Number(q.get('limit') ?? 100);
      const offset = Number(q.get('offset') ?? 0);
      return json(res, 200, this.pushes.filter((p) => p.create_time >= from).slice(offset, offset + limit));
    }
    return json(res, 404, { label: 'NOT_FOUND', message: path });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
