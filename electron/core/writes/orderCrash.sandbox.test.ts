import Decimal from 'decimal.js';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OrderBook, SpotOrder } from '../../../shared/api/orders.ts';
import { ApiClient } from '../client/client.ts';
import { readJournal } from '../journal/journal.ts';
import type { IntentView } from '../journal/intents.ts';
import { journalKeyOf } from './testkit/batchRunner.key.ts';
import { useSandbox } from '../testkit/sandbox.ts';

// A spot order's exactly-once across a crash, on a real Sandbox: the desk's process (a child, as the
// core would run) journals the order and dies with SIGKILL at a chosen moment; a new process over the
// same journal must settle it by looking the order up by its text. The orders the Sandbox holds are
// counted with this test's own client, open and finished, by text.

const here = dirname(fileURLToPath(import.meta.url));
const runner = join(here, 'testkit', 'orderRunner.ts');
const tsx = createRequire(import.meta.url).resolve('tsx');
const SETTLE_MS = 1000;

let mine: ApiClient;
/** Below every bid, so the order rests and stays open for the whole test. */
let price: string;

const sb = useSandbox('order-crash', { limits: false });
beforeAll(async () => {
  mine = new ApiClient({ baseUrl: sb.creds.base_url, credentials: sb.creds.main, limitsOff: true });
  const book = await mine.request(
    {
      method: 'GET',
      path: '/spot/order_book',
      query: [
        ['currency_pair', 'BTC_USDT'],
        ['limit', '50'],
      ],
    },
    OrderBook,
  );
  price = new Decimal(book.bids[book.bids.length - 1]![0]).mul('0.8').toDecimalPlaces(0).toFixed();
}, 60_000);

/** Every order of the main account holding `text`, open or finished, as the Sandbox answers this test's own client. */
async function ordersWithText(text: string): Promise<SpotOrder[]> {
  const all: SpotOrder[] = [];
  for (const status of ['open', 'finished']) {
    all.push(
      ...(await mine.request(
        {
          method: 'GET',
          path: '/spot/orders',
          query: [
            ['currency_pair', 'BTC_USDT'],
            ['status', status],
            ['limit', '100'],
          ],
        },
        z.array(SpotOrder),
      )),
    );
  }
  return all.filter((o) => o.text === text);
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
}

/** Runs the stand-in core; `killAt` is the line after which it is killed with SIGKILL. */
function run(mode: string, journal: string, killAt?: string): Promise<Run> {
  const child = spawn(process.execPath, ['--import', tsx, runner, mode, journal, sb.credentialsPath, price, String(SETTLE_MS)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const err: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => err.push(l));
  createInterface({ input: child.stdout! }).on('line', (l) => {
    lines.push(l);
    if (l === killAt) child.kill('SIGKILL');
  });
  return new Promise((done) =>
    child.once('exit', (code, signal) => {
      if (code !== 0 && signal === null) process.stderr.write(`${err.join('\n')}\n`);
      done({ code, signal, lines });
    }),
  );
}

function textOf(r: Run): string {
  const line = r.lines.find((l) => l.startsWith('PREPARED '));
  if (!line) throw new Error(`the runner prepared no order: ${r.lines.join(' | ')}`);
  return line.slice('PREPARED '.length);
}

function resumed(r: Run): IntentView {
  expect(r.code).toBe(0);
  const line = r.lines.find((l) => l.startsWith('DONE '));
  return JSON.parse(line!.slice('DONE '.length)) as IntentView;
}

function recordsOf(journal: string): Array<{ type: string; [k: string]: unknown }> {
  return readJournal(journal, journalKeyOf(journal)).records as unknown as Array<{ type: string; [k: string]: unknown }>;
}

describe('a spot order across a crash of the desk', () => {
  it('killed after the order landed, before the desk saw the answer: the restarted desk finds it by its text and never sends it again', async () => {
    const journal = join(sb.dir, 'answer-lost.jsonl');
    const first = await run('answer-lost', journal, 'ANSWER_HELD');
    expect(first.signal).toBe('SIGKILL');
    const text = textOf(first);
    expect(recordsOf(journal).map((r) => r.type)).toEqual(['intent', 'approval', 'sent']);
    expect(await ordersWithText(text)).toHaveLength(1);

    const v = resumed(await run('resume', journal));
    const orders = await ordersWithText(text);
    expect(orders).toHaveLength(1);
    expect(v).toMatchObject({ state: 'done', client_id: text, exchange_id: orders[0]!.id, attempts: 1 });
    expect(recordsOf(journal).filter((r) => r.type === 'sent')).toHaveLength(1);
  }, 60_000);

  it('killed after journaling "sent" but before the request left: the restarted desk proves it absent, then sends it exactly once', async () => {
    const journal = join(sb.dir, 'not-sent.jsonl');
    const first = await run('not-sent', journal, 'SENT_JOURNALED');
    expect(first.signal).toBe('SIGKILL');
    const text = textOf(first);
    expect(recordsOf(journal).map((r) => r.type)).toEqual(['intent', 'approval', 'sent']);
    expect(await ordersWithText(text)).toEqual([]);

    const v = resumed(await run('resume', journal));
    const orders = await ordersWithText(text);
    expect(orders).toHaveLength(1);
    expect(v).toMatchObject({ state: 'done', client_id: text, exchange_id: orders[0]!.id, attempts: 2 });
    // Absent in more than one lookup before the second attempt went out.
    const types = recordsOf(journal).map((r) => r.type);
    expect(types.indexOf('retry')).toBeGreaterThan(0);
    expect(types.slice(0, types.indexOf('retry')).filter((t) => t === 'lookup').length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('approved in an earlier run and never sent by it: looked up before its first send, so an order already there is not placed twice', async () => {
    const journal = join(sb.dir, 'approved.jsonl');
    const first = await run('approved', journal, 'APPROVED');
    expect(first.signal).toBe('SIGKILL');
    const text = textOf(first);
    expect(recordsOf(journal).map((r) => r.type)).toEqual(['intent', 'approval']);
    // The journal does not say it was sent, yet the order is at the exchange: a data folder restored from
    // a copy taken before the "sent" record looks exactly like this.
    const body = recordsOf(journal)[0]!.body as Record<string, string>;
    await mine.request({ method: 'POST', path: '/spot/orders', body, priority: 'action' }, SpotOrder);
    expect(await ordersWithText(text)).toHaveLength(1);

    const v = resumed(await run('resume', journal));
    const orders = await ordersWithText(text);
    expect(orders).toHaveLength(1);
    expect(v).toMatchObject({ state: 'done', client_id: text, exchange_id: orders[0]!.id, attempts: 0 });
    expect(recordsOf(journal).filter((r) => r.type === 'sent')).toEqual([]);
  }, 60_000);
});
