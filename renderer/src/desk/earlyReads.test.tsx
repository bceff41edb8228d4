import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeDesk, type FakeDesk } from '../testkit/fakeDesk.ts';
import { baseAnswers, SANDBOX_PROFILE } from '../testkit/fixtures.ts';
import { createDesk } from './DeskProvider.tsx';

// The module keeps one window's state: each test loads it afresh.
const load = async () => import('./earlyReads.ts');

describe("the first paint's reads, sent by the window's first script", () => {
  let fake: FakeDesk;
  beforeEach(() => {
    vi.resetModules();
    fake = fakeDesk(baseAnswers());
    window.desk = fake.api;
  });
  afterEach(() => {
    delete (window as { desk?: unknown }).desk;
  });

  it('are sent once, whichever entry asks first, and their answers are taken by the same calls of the app', async () => {
    const { askEarly, deskApi, takeEarly } = await load();
    const reads = () => [
      ['profileCurrent', {}] as const,
      ['lastKnown', { channel: 'totalBalance', request: { currency: 'USDT' } }] as const,
    ];
    askEarly(reads);
    askEarly(reads);
    expect(fake.calls.profileCurrent).toEqual([{}]);
    expect(fake.calls.lastKnown).toEqual([{ channel: 'totalBalance', request: { currency: 'USDT' } }]);

    const desk = createDesk(deskApi(), Date.now, takeEarly);
    expect(await desk.call('profileCurrent', {})).toEqual(SANDBOX_PROFILE);
    await desk.call('lastKnown', { channel: 'totalBalance', request: { currency: 'USDT' } });
    expect(fake.count('profileCurrent')).toBe(1);
    expect(fake.count('lastKnown')).toBe(1);
    // Another request of the same channel, and any later call, is sent as usual.
    await desk.call('lastKnown', { channel: 'totalBalance', request: { currency: 'BTC' } });
    await desk.call('profileCurrent', {});
    expect(fake.count('lastKnown')).toBe(2);
    expect(fake.count('profileCurrent')).toBe(2);
  });

  it("hands an early read's refusal to the call that takes it, as the core's own", async () => {
    fake.answers.profileCurrent = new Error('the host is gone');
    const { askEarly, deskApi, takeEarly } = await load();
    askEarly(() => [['profileCurrent', {}]]);
    await expect(createDesk(deskApi(), Date.now, takeEarly).call('profileCurrent', {})).rejects.toThrow('the host is gone');
    expect(fake.count('profileCurrent')).toBe(1);
  });
});
