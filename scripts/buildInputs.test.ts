import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInputsHash } from './buildInputs.ts';

// `npm start` skips the build when this hash is unchanged: it must move with every input the build
// reads, and stay put for what it does not (tests).

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-inputs-'));
  for (const d of ['renderer/src', 'shared', 'electron'])
    cpSync(join(import.meta.dirname, '..', 'shared', 'money.ts'), join(root, d, 'a.ts'), { recursive: true });
  for (const f of ['vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json', 'renderer/tsconfig.json'])
    writeFileSync(join(root, f), '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the build inputs hash', () => {
  it('is the same for the same inputs, and ignores test files', () => {
    const h = buildInputsHash(root);
    expect(buildInputsHash(root)).toBe(h);
    writeFileSync(join(root, 'shared', 'a.test.ts'), 'it()');
    writeFileSync(join(root, 'renderer', 'src', 'b.e2e.ts'), 'it()');
    expect(buildInputsHash(root)).toBe(h);
  });

  it('moves with a source, a new source, the config or the lockfile', () => {
    let h = buildInputsHash(root);
    for (const change of [
      () => writeFileSync(join(root, 'electron', 'a.ts'), 'export const x = 1;'),
      () => writeFileSync(join(root, 'renderer', 'src', 'new.tsx'), 'export {};'),
      () => writeFileSync(join(root, 'vite.config.ts'), '{ "changed": true }'),
      () => writeFileSync(join(root, 'package-lock.json'), '{ "lockfileVersion": 3 }'),
    ]) {
      change();
      const next = buildInputsHash(root);
      expect(next).not.toBe(h);
      h = next;
    }
  });
});
