import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWatermark, writeWatermark } from './watermark.ts';

// The watermark decides where the next reconciliation starts reading: one moved forward by someone who
// can write the folder would hide the records a restore left behind, so it must not verify.

const dir = mkdtempSync(join(tmpdir(), 'watermark-'));
const key = () => Buffer.alloc(32, 7);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the reconciliation watermark', () => {
  it('reads back what was written, under the same journal name only', () => {
    const path = join(dir, 'a.reconciled.json');
    writeWatermark(path, key, 'profile-a', { through: 1_700_000_000 });
    expect(readWatermark(path, key, 'profile-a')).toEqual({ through: 1_700_000_000 });
    expect(readWatermark(path, key, 'profile-b')).toBeNull();
  });

  it('moved forward by hand, it does not verify: the next reconciliation reads the full year', () => {
    const path = join(dir, 'b.reconciled.json');
    writeWatermark(path, key, 'p', { through: 1_700_000_000 });
    const f = JSON.parse(readFileSync(path, 'utf8')) as { through: number; mac: string };
    writeFileSync(path, JSON.stringify({ ...f, through: f.through + 86_400 }));
    expect(readWatermark(path, key, 'p')).toBeNull();
    writeFileSync(path, 'not json');
    expect(readWatermark(path, key, 'p')).toBeNull();
  });
});
