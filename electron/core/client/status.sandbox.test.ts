import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelResponse, EventPayload } from '../../../shared/ipc.ts';
import type { ConfirmCore, Core } from '../core.ts';
import { openDesk } from '../desk.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { adminCall } from '../testkit/sandboxAdmin.ts';

// The status bar's picture as the core keeps it, against a real Sandbox with its limits on: the link
// follows every answer the desk gets (its own background requests too, with no window asking), and a
// 429 shows its bucket paused, with the reason, both in the event and in the answer a late window reads.

const sb = useSandbox('status');
let core: Core & ConfirmCore;
const limits: EventPayload<'rateLimits'>[] = [];

async function status(): Promise<ChannelResponse<'deskStatus'>> {
  const r = await core.invoke('deskStatus', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.data as ChannelResponse<'deskStatus'>;
}

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never saw ${what}`);
}

beforeAll(() => {
  core = openDesk({ home: join(sb.dir, 'desk'), sandboxCredentialsPath: sb.credentialsPath, log: () => {} });
  core.subscribe((e, p) => e === 'rateLimits' && limits.push(p as EventPayload<'rateLimits'>));
});
afterAll(async () => {
  await core?.close();
});

describe("the status bar's picture in the core", () => {
  it('counts the answers to its own background requests, before any window asked for anything', async () => {
    const s = await until('an answer', status, (v) => v.link.last_answer_at !== null);
    expect(s.link.last_failure).toBeNull();
  });

  it('shows a bucket paused after a 429, with the reason, though nothing else waits in it, then the read goes through', async () => {
    // On the read this test makes alone: the desk's own background reads of /wallet/* would take a
    // fault set on the whole group first, and pause another bucket.
    await adminCall(sb.creds, 'POST', '/faults', {
      kind: 'error',
      path: '/wallet/total_balance',
      method: 'GET',
      status: 429,
      label: 'TOO_MANY_REQUESTS',
      message: 'injected',
      times: 1,
    });
    const before = (await status()).link.last_answer_at!;
    const read = core.invoke('totalBalance', {});
    const paused = await until('the pause', status, (v) => v.rate_limits.buckets.some((b) => b.pause_reason === 'too_many_requests'));
    const bucket = paused.rate_limits.buckets.find((b) => b.pause_reason === 'too_many_requests')!;
    expect(bucket.key).toContain('GET /wallet/total_balance');
    expect(bucket.paused_until_ms).toBeGreaterThan(Date.now());
    expect(bucket.used).toBeGreaterThanOrEqual(1);
    // The 429 is an answer: the link is up.
    expect(paused.link.last_answer_at).toBeGreaterThan(before);
    expect(paused.link.last_failure).toBeNull();
    // The window that was open was told the same.
    await until(
      'the pause in an event',
      async () => limits,
      (l) => l.some((e) => e.buckets.some((b) => b.pause_reason === 'too_many_requests')),
    );

    expect(await read).toMatchObject({ ok: true });
    const after = await status();
    const done = after.rate_limits.buckets.find((b) => b.key === bucket.key);
    // The retry went through after the pause; the bucket stays in view while its window holds the retry.
    expect(done).toMatchObject({ paused_until_ms: null, pause_reason: null, queued: 0 });
    expect(done!.used).toBeGreaterThanOrEqual(1);
  }, 40_000);
});
