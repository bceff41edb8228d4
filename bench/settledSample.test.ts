import { describe, expect, it } from 'vitest';
import { settledSample } from './settledSample.ts';

const MB = 1024 * 1024;

function readings(mb: number[]) {
  let i = 0;
  const waits: number[] = [];
  return {
    read: () => ({ rss: mb[Math.min(i++, mb.length - 1)]! * MB }),
    wait: async (ms: number) => {
      waits.push(ms);
    },
    waits,
  };
}

describe('settledSample', () => {
  it('waits for the pages a collection freed to leave the resident size', async () => {
    const r = readings([231, 150, 96, 95.9, 95.8]);
    expect((await settledSample(r.read, r.wait)).rss).toBe(95.9 * MB);
    expect(r.waits).toEqual([50, 50, 50]);
  });

  it('answers the last reading once its time is up, settled or not', async () => {
    const r = readings(Array.from({ length: 100 }, (_, k) => 200 - k));
    const s = await settledSample(r.read, r.wait, { stepMs: 50, maxMs: 200, bytes: 256 * 1024 });
    expect(s.rss).toBe(196 * MB);
    expect(r.waits).toHaveLength(4);
  });
});
