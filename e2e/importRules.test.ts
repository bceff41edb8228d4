import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const depcruise = join(ROOT, 'node_modules', '.bin', 'depcruise');

function cruise(files: string[]) {
  return spawnSync(depcruise, ['--config', '.dependency-cruiser.cjs', ...files], { cwd: ROOT, encoding: 'utf8' });
}

/** Writes a file that breaks one rule, runs the real check on it, and removes it again. */
function probe(folder: string, source: string) {
  const rel = join(folder, `__rule_probe_${randomBytes(4).toString('hex')}__.ts`);
  writeFileSync(join(ROOT, rel), source);
  try {
    return cruise([rel]);
  } finally {
    rmSync(join(ROOT, rel), { force: true });
  }
}

describe('import rules of DESIGN.md', () => {
  it('the project as it is passes', () => {
    const r = cruise(['shared', 'electron', 'renderer', 'simulator', 'e2e', 'bench']);
    expect(r.stdout + r.stderr).toContain('no dependency violations');
    expect(r.status).toBe(0);
  });

  it.each([
    ['renderer', "import { createCore } from '../electron/core/core.ts';\nexport const x = createCore;\n", 'renderer-only-shared'],
    ['renderer', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'renderer-no-node'],
    ['shared', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'shared-no-node'],
    ['shared', "import { createCore } from '../electron/core/core.ts';\nexport const x = createCore;\n", 'shared-is-standalone'],
    ['electron/core', "import { app } from 'electron';\nexport const x = app;\n", 'only-hosts-import-electron'],
    ['electron/core', "import { startWebHost } from '../host/web.ts';\nexport const x = startWebHost;\n", 'core-no-electron-no-ui'],
    ['simulator', "import { createCore } from '../electron/core/core.ts';\nexport const x = createCore;\n", 'sandbox-stays-apart'],
    ['simulator', "import { channels } from '../shared/ipc.ts';\nexport const x = channels;\n", 'sandbox-stays-apart'],
  ])('a file in %s breaking a rule fails the check (%#)', (folder, source, rule) => {
    const r = probe(folder, source);
    expect(r.stdout + r.stderr).toContain(rule);
    expect(r.status).not.toBe(0);
  });
});
