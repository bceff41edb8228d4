import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { TemplateStore } from './templates.ts';

// Templates live in the data folder, which someone else may write: a file that fails its schema is an
// error that names the problem, and nothing is planned from it.

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'templates-'));
  path = join(dir, 'rebalance', 'templates.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const equal = {
  name: 'desks equal',
  currency: 'USDT',
  lines: [
    { account: { owner: '101', kind: 'spot' as const }, target: { type: 'share' as const, share: '1/2' } },
    { account: { owner: '102', kind: 'spot' as const }, target: { type: 'share' as const, share: '1/2' } },
  ],
};

describe('rebalance templates', () => {
  it('saves, replaces by name, lists per profile and deletes', () => {
    const store = new TemplateStore(path);
    expect(store.list('sandbox')).toEqual([]);
    store.save('sandbox', equal);
    store.save('sandbox', { ...equal, lines: [equal.lines[0]!] });
    expect(store.list('sandbox')).toEqual([{ ...equal, lines: [equal.lines[0]] }]);
    expect(store.list('other')).toEqual([]);
    expect(new TemplateStore(path).remove('sandbox', 'desks equal')).toEqual([]);
    expect(() => store.remove('sandbox', 'nope')).toThrow(/no template named "nope"/);
  });

  it('a file changed outside the desk is an input error naming what is wrong, and is left as it was', () => {
    const store = new TemplateStore(path);
    store.save('sandbox', equal);
    const doctored = JSON.parse(readFileSync(path, 'utf8'));
    doctored.sandbox[0].lines[0].target = { type: 'amount', amount: '-5' };
    writeFileSync(path, JSON.stringify(doctored));
    expect(() => store.list('sandbox')).toThrow(InputError);
    expect(() => store.list('sandbox')).toThrow(/templates cannot be used: .*sandbox\.0\.lines\.0\.target\.amount/);
    expect(() => store.save('sandbox', equal)).toThrow(InputError);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(doctored);
    writeFileSync(path, '{ not json');
    expect(() => store.list('sandbox')).toThrow(/is not valid JSON/);
  });
});
