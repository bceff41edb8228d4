import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError, NetworkError } from '../errors.ts';
import { Journal } from '../journal/journal.ts';
import { testJournalKey } from '../journal/testkit/key.ts';
import { WriteExecutor } from './executor.ts';
import type { HttpRequest, WriteClient } from './lookups.ts';
import { MAX_PAGES } from './orderLookups.ts';

// The exactly-once decisions for spot orders, with a scripted exchange behind the WriteClient seam:
// the POST's answer is lost, then the lookups see the order by its text, only among the finished orders,
// only in the trades, nowhere, or cannot be completed; the executor must accept, resend, or stop for an operator.

// The journal stamps intents with the real clock; the executor's clock starts there and moves on by itself.
const NOW = Date.now();
const pair = 'BTC_USDT';

function order(text: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '77',
    text,
    amend_text: '-',
    create_time: String(NOW / 1000),
    update_time: String(NOW / 1000),
    create_time_ms: NOW,
    update_time_ms: NOW,
    status: 'closed',
    currency_pair: pair,
    type: 'limit',
    account: 'spot',
    side: 'buy',
    amount: '0.01',
    price: '60000',
    time_in_force: 'gtc',
    iceberg: '0',
    left: '0',
    filled_amount: '0.01',
    fill_price: '600',
    filled_total: '600',
    avg_deal_price: '60000',
    fee: '0.00002',
    fee_currency: 'BTC',
    point_fee: '0',
    gt_fee: '0',
    gt_maker_fee: '0',
    gt_taker_fee: '0',
    gt_discount: false,
    rebated_fee: '0',
    rebated_fee_currency: 'USDT',
    stp_id: 0,
    stp_act: '-',
    finish_as: 'filled',
    ...over,
  };
}

function trade(text: string): Record<string, unknown> {
  return {
    id: '9',
    create_time: String(NOW / 1000),
    create_time_ms: String(NOW),
    currency_pair: pair,
    side: 'buy',
    role: 'taker',
    amount: '0.01',
    price: '60000',
    order_id: '78',
    fee: '0.00002',
    fee_currency: 'BTC',
    point_fee: '0',
    gt_fee: '0',
    amend_text: '-',
    sequence_id: '1',
    text,
  };
}

interface World {
  /** What the exchange holds with our text, per place; `null` makes that read fail. */
  byText?: Record<string, unknown> | null;
  open?: Array<Record<string, unknown>> | null;
  finished?: Array<Record<string, unknown>> | null;
  trades?: Array<Record<string, unknown>> | null;
  /** A list so long the desk cannot read it all. */
  endless?: boolean;
  postAnswer?: 'lost' | 'ok';
}

class ScriptedExchange implements WriteClient {
  posts = 0;
  readonly asked: string[] = [];
  text = '';
  constructor(private readonly w: World) {}

  async request<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.output<S>> {
    const q = new Map(req.query ?? []);
    this.asked.push(`${req.method} ${req.path}${q.get('status') ? ` ${q.get('status')}` : ''}`);
    if (req.method === 'POST') {
      this.posts++;
      this.text = String((req.body as Record<string, unknown>).text);
      if (this.w.postAnswer === 'ok') return schema.parse(order(this.text, { id: String(100 + this.posts) }));
      throw new NetworkError('the connection was dropped before the answer');
    }
    const fill = (rows: Array<Record<string, unknown>> | null | undefined): unknown => {
      if (rows === null) throw new NetworkError('timed out', undefined, { timedOut: true });
      if (this.w.endless) {
        return Array.from({ length: Number(q.get('limit')) }, (_, i) =>
          req.path === '/spot/my_trades' ? trade(`t-other${i}`) : order(`t-other${i}`, { id: String(1000 + i) }),
        );
      }
      return (rows ?? []).map((r) => ({ ...r, text: r.text === '$' ? this.text : r.text }));
    };
    if (req.path.startsWith('/spot/orders/')) {
      if (this.w.byText === null) throw new NetworkError('timed out', undefined, { timedOut: true });
      if (!this.w.byText) throw new ExchangeError(404, 'ORDER_NOT_FOUND', 'no such order');
      return schema.parse({ ...this.w.byText, text: this.text });
    }
    if (req.path === '/spot/orders') return schema.parse(fill(q.get('status') === 'open' ? this.w.open : this.w.finished));
    if (req.path === '/spot/my_trades') return schema.parse(fill(this.w.trades));
    throw new Error(`unexpected ${req.method} ${req.path}`);
  }
}

let dir: string;
let journal: Journal;
let executor: WriteExecutor | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'orders-'));
  journal = Journal.open(join(dir, 'journal.jsonl'), { key: testJournalKey });
});
afterEach(async () => {
  await executor?.stop();
  executor = null;
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

const limitBuy = {
  kind: 'spot_order' as const,
  input: {
    currency_pair: pair,
    side: 'buy' as const,
    type: 'limit' as const,
    account: 'spot' as const,
    amount: '0.01',
    price: '60000',
    time_in_force: 'gtc' as const,
  },
};

async function run(world: World, now = NOW) {
  const ex = new ScriptedExchange(world);
  let t = now;
  executor = new WriteExecutor({ journal, client: ex, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
  const v = await executor.submit(limitBuy, 'tester');
  return { v, ex };
}

describe('a spot order whose answer was lost', () => {
  it('carries a t- text made from its journaled id, within the 28 characters §2.10 allows', async () => {
    const { v, ex } = await run({ postAnswer: 'ok' });
    expect(v.state).toBe('done');
    expect(ex.text).toMatch(/^t-[0-9A-Za-z_.-]{1,28}$/);
    expect(v.client_id).toBe(ex.text);
    expect(journal.intent(v.id)!.body.text).toBe(ex.text);
  });

  it('is accepted, never resent, when GET /spot/orders/{text} finds it', async () => {
    const { v, ex } = await run({ byText: order('$') });
    expect(v.state).toBe('done');
    expect(v.exchange_id).toBe('77');
    expect(ex.posts).toBe(1);
  });

  it('is accepted when only the finished orders hold it (the text no longer answers after 30 minutes)', async () => {
    const { v, ex } = await run({ finished: [order('$', { id: '79' })] }, NOW);
    expect(v.state).toBe('done');
    expect(v.exchange_id).toBe('79');
    expect(ex.posts).toBe(1);
  });

  it('skips the by-text lookup once 30 minutes have passed, and still finds it among the open orders', async () => {
    const ex = new ScriptedExchange({ open: [order('$', { id: '80', status: 'open' })] });
    let t = NOW;
    executor = new WriteExecutor({ journal, client: ex, settleMs: 20, lookupIntervalMs: 5, now: () => t });
    const p = executor.prepare(limitBuy);
    t += 31 * 60_000;
    const v = await executor.approve(p.id, 'tester');
    expect(v.state).toBe('done');
    expect(v.exchange_id).toBe('80');
    expect(ex.asked.some((a) => a.startsWith('GET /spot/orders/'))).toBe(false);
  });

  it('is accepted when only a trade carries its text', async () => {
    const { v, ex } = await run({ trades: [trade('$')] });
    expect(v.state).toBe('done');
    expect(v.exchange_id).toBe('78');
    expect(ex.posts).toBe(1);
  });

  it('is sent again only after every place was searched and found it absent', async () => {
    const ex = new ScriptedExchange({});
    let t = NOW;
    let posts = 0;
    const client: WriteClient = {
      request: (req, schema) => {
        if (req.method === 'POST' && ++posts === 2) return Promise.resolve(schema.parse(order(ex.text, { id: '90' })));
        return ex.request(req, schema);
      },
    };
    executor = new WriteExecutor({ journal, client, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const v = await executor.submit(limitBuy, 'tester');
    expect(posts).toBe(2);
    expect(v.state).toBe('done');
    expect(v.exchange_id).toBe('90');
    for (const place of ['GET /spot/orders open', 'GET /spot/orders finished', 'GET /spot/my_trades']) expect(ex.asked).toContain(place);
    expect(journal.intent(v.id)!.body.text).toBe(ex.text);
  });

  it('is never resent while a lookup fails: the question proves nothing', async () => {
    const ex = new ScriptedExchange({ trades: null });
    let t = NOW;
    executor = new WriteExecutor({ journal, client: ex, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const driving = executor.submit(limitBuy, 'tester');
    await new Promise((r) => setTimeout(r, 200));
    expect(ex.posts).toBe(1);
    expect(journal.intents()[0]!.state).toBe('unconfirmed');
    await executor.stop();
    await driving;
  });

  it('needs an operator, never a resend, when the desk cannot read every record since the order', async () => {
    const { v, ex } = await run({ endless: true });
    expect(v.state).toBe('needs_attention');
    expect(v.reason).toContain(`more than ${MAX_PAGES} pages`);
    expect(ex.posts).toBe(1);
  });

  it('needs an operator when the exchange refuses the lookup itself', async () => {
    const ex = new ScriptedExchange({});
    const client: WriteClient = {
      request: (req, schema) =>
        req.path === '/spot/my_trades' ? Promise.reject(new ExchangeError(403, 'FORBIDDEN', 'no')) : ex.request(req, schema),
    };
    let t = NOW;
    executor = new WriteExecutor({ journal, client, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const v = await executor.submit(limitBuy, 'tester');
    expect(v.state).toBe('needs_attention');
    expect(ex.posts).toBe(1);
  });

  it('reports two orders holding its text as applied more than once', async () => {
    const { v } = await run({ byText: order('$'), finished: [order('$', { id: '81' })] });
    expect(v.state).toBe('needs_attention');
    expect(v.reason).toContain('more than once');
  });
});

describe('orders for a sub-account', () => {
  it("are sent and looked up with that sub-account's client only", async () => {
    const main = new ScriptedExchange({});
    const sub = new ScriptedExchange({ finished: [order('$', { id: '82' })] });
    let t = NOW;
    executor = new WriteExecutor({
      journal,
      client: main,
      settleMs: 20,
      lookupIntervalMs: 5,
      now: () => (t += 10),
      subClient: (uid) =>
        uid === '105'
          ? sub
          : (() => {
              throw new Error('no key');
            })(),
    });
    const v = await executor.submit({ ...limitBuy, input: { ...limitBuy.input, sub_uid: '105' } }, 'tester');
    expect(v.state).toBe('done');
    expect(v.exchange_id).toBe('82');
    expect(main.asked).toEqual([]);
    expect(sub.posts).toBe(1);
  });

  it('are refused unsent when the profile holds no key for the sub-account', async () => {
    const main = new ScriptedExchange({});
    executor = new WriteExecutor({ journal, client: main, settleMs: 20, lookupIntervalMs: 5 });
    const v = await executor.submit({ ...limitBuy, input: { ...limitBuy.input, sub_uid: '106' } }, 'tester');
    expect(v.state).toBe('cancelled');
    expect(v.reason).toMatch(/not sent: this desk signs nothing with a sub-account's key/);
    expect(main.asked).toEqual([]);
  });
});

describe('a cancellation whose answer was lost', () => {
  const cancel = { kind: 'spot_cancel' as const, input: { currency_pair: pair, order_id: '77' } };

  /** The DELETE's answer is lost the first `lost` times; the order's status is what the exchange then holds. */
  function exchange(status: () => string, lost = 1) {
    const asked: string[] = [];
    let deletes = 0;
    const client: WriteClient = {
      request: async (req, schema) => {
        asked.push(`${req.method} ${req.path}`);
        if (req.method === 'DELETE') {
          if (++deletes <= lost) throw new NetworkError('the connection was dropped before the answer');
          return schema.parse(order('t-x', { status: 'cancelled', finish_as: 'cancelled' }));
        }
        return schema.parse(order('t-x', { status: status() }));
      },
    };
    return { client, asked, deletes: () => deletes };
  }

  it('is done when the order is no longer open, without a second DELETE', async () => {
    const ex = exchange(() => 'cancelled');
    let t = NOW;
    executor = new WriteExecutor({ journal, client: ex.client, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const v = await executor.submit(cancel, 'tester');
    expect(v.state).toBe('done');
    expect(ex.deletes()).toBe(1);
    expect(ex.asked).toContain('GET /spot/orders/77');
  });

  it('is sent again while the order stays open (sending a cancel twice does no harm)', async () => {
    let cancelled = false;
    const ex = exchange(() => (cancelled ? 'cancelled' : 'open'));
    const client: WriteClient = {
      request: async (req, schema) => {
        const r = await ex.client.request(req, schema);
        if (req.method === 'DELETE') cancelled = true;
        return r;
      },
    };
    let t = NOW;
    executor = new WriteExecutor({ journal, client, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const v = await executor.submit(cancel, 'tester');
    expect(v.state).toBe('done');
    expect(ex.deletes()).toBe(2);
  });

  it('is refused, with the reason, when the order filled before the cancel reached it', async () => {
    const ex = exchange(() => 'closed');
    let t = NOW;
    executor = new WriteExecutor({ journal, client: ex.client, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const v = await executor.submit(cancel, 'tester');
    expect(v).toMatchObject({ state: 'refused', reason: expect.stringContaining('filled before the cancellation') });
    expect(ex.deletes()).toBe(1);
  });
});

describe('cancelling every open order of a pair, answer lost', () => {
  it('is done once the pair has no open order left, and sent again while one is', async () => {
    let open = [order('t-a', { status: 'open' }), order('t-b', { id: '78', status: 'open' })];
    let deletes = 0;
    const client: WriteClient = {
      request: async (req, schema) => {
        if (req.method === 'DELETE') {
          deletes++;
          // The first DELETE cancels only one (a new order arrived meanwhile, say) and its answer is lost.
          if (deletes === 1) {
            open = open.slice(1);
            throw new NetworkError('the connection was dropped before the answer');
          }
          open = [];
          return schema.parse([]);
        }
        return schema.parse(open);
      },
    };
    let t = NOW;
    executor = new WriteExecutor({ journal, client, settleMs: 20, lookupIntervalMs: 5, now: () => (t += 10) });
    const v = await executor.submit({ kind: 'spot_cancel_all', input: { currency_pair: pair } }, 'tester');
    expect(v.state).toBe('done');
    expect(deletes).toBe(2);
  });
});
