import { describe, expect, it } from 'vitest';
import { channels, events } from './ipc.ts';
import { CHANNEL_NAMES, deskApiOver, EVENT_NAMES, isEventName } from './ipcNames.ts';

describe('the contract names without the schemas', () => {
  it('are exactly the channels and events of shared/ipc.ts', () => {
    expect([...CHANNEL_NAMES].sort()).toEqual(Object.keys(channels).sort());
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(events).sort());
    expect(new Set(CHANNEL_NAMES).size).toBe(CHANNEL_NAMES.length);
  });

  it('build one method per channel and tell events from other names', async () => {
    const asked: string[] = [];
    const api = deskApiOver({
      invoke: async (name) => (asked.push(name), { ok: true, data: null }),
      on: () => () => {},
    });
    expect(Object.keys(api).sort()).toEqual([...CHANNEL_NAMES, 'on'].sort());
    await api.totalBalance({ currency: 'USDT' });
    expect(asked).toEqual(['totalBalance']);
    expect(isEventName('intent')).toBe(true);
    expect(isEventName('toString')).toBe(false);
    expect(isEventName('totalBalance')).toBe(false);
  });
});
