import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const depcruise = join(ROOT, 'node_modules', '.bin', 'depcruise');
const FOLDERS = ['shared', 'electron', 'renderer', 'simulator', 'e2e', 'bench'];

// Probes are written into a copy of the tree, never into the live one: a test run that dies midway
// must not leave a rule-breaking file in the sources (nor race another run's typecheck).
let copy: string;
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'td-import-rules-'));
  for (const f of [...FOLDERS, '.dependency-cruiser.cjs', 'tsconfig.json', 'package.json'])
    cpSync(join(ROOT, f), join(copy, f), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

function cruise(cwd: string, files: string[]) {
  return spawnSync(depcruise, ['--config', '.dependency-cruiser.cjs', ...files], { cwd, encoding: 'utf8' });
}

const PROBES: Array<[string, string, string]> = [
  ['renderer/probe0.ts', "import { createCore } from '../electron/core/core.ts';\nexport const x = createCore;\n", 'renderer-only-shared'],
  ['renderer/probe1.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'renderer-no-node'],
  ['shared/probe2.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n", 'shared-no-node'],
  ['shared/probe3.ts', "import { createCore } from '../electron/core/core.ts';\nexport const x = createCore;\n", 'shared-is-standalone'],
  ['electron/core/probe4.ts', "import { app } from 'electron';\nexport const x = app;\n", 'only-hosts-import-electron'],
  ['electron/core/probe5.ts', "import { startWebHost } from '../host/web.ts';\nexport const x = startWebHost;\n", 'core-no-electron-no-ui'],
  ['simulator/probe6.ts', "import { createCore } from '../electron/core/core.ts';\nexport const x = createCore;\n", 'sandbox-stays-apart'],
  ['simulator/probe7.ts', "import { channels } from '../shared/ipc.ts';\nexport const x = channels;\n", 'sandbox-stays-apart'],
  [
    'electron/core/writes/probe8.ts',
    "import { FaultyExchange } from './testkit/faultyExchange.ts';\nexport const x = FaultyExchange;\n",
    'no-testkit-in-production',
  ],
  ['simulator/routes/probe9.ts', "import { send } from '../testkit/http.ts';\nexport const x = send;\n", 'no-testkit-in-production'],
  [
    'renderer/src/features/orders/probe10.ts',
    "import { summary } from '../activity/intentText.ts';\nexport const x = summary;\n",
    'features-through-index',
  ],
  // The core's layers run one way: policy/ below governance/, governance/ below approvals/ and the journal,
  // approvals/ below team/.
  [
    'electron/core/policy/probe11.ts',
    "import { Approvals } from '../approvals/service.ts';\nexport const x = Approvals;\n",
    'policy-below-governance',
  ],
  [
    'electron/core/governance/probe12.ts',
    "import { Journal } from '../journal/journal.ts';\nexport const x = Journal;\n",
    'governance-below-approvals-and-journal',
  ],
  [
    'electron/core/journal/probe13.ts',
    "import { Approvals } from '../approvals/service.ts';\nexport const x = Approvals;\n",
    'journal-below-approvals',
  ],
  [
    'electron/core/approvals/probe14.ts',
    "import { LazyTeamStore } from '../team/lazyStore.ts';\nexport const x = LazyTeamStore;\n",
    'approvals-never-import-team',
  ],
  // A circle made only of type imports: erased from the build, still a circle between the modules.
  ['shared/probeCircle.ts', "import type { B } from './probeCircleB.ts';\nexport type A = B | 1;\n", 'no-circular'],
];
/** A feature importing another through that feature's index.ts: allowed. */
const ALLOWED = [
  'renderer/src/features/orders/probeAllowed.ts',
  "import { summary } from '../activity/index.ts';\nexport const x = summary;\n",
];

// Every probe is written into the copy and the real check runs once over all of them: one run of
// dependency-cruiser (seconds of CPU) instead of one per rule. Each rule must then be reported against
// its own probe file, and none against the allowed one.
let report: { out: string; status: number | null };
// Seconds of CPU alone, far longer on a loaded machine: the hook's own limit.
beforeAll(() => {
  writeFileSync(join(copy, 'shared/probeCircleB.ts'), "import type { A } from './probeCircle.ts';\nexport type B = A | 2;\n");
  for (const [file, source] of [...PROBES, ALLOWED]) {
    mkdirSync(dirname(join(copy, file!)), { recursive: true });
    writeFileSync(join(copy, file!), source!);
  }
  const r = cruise(copy, [...PROBES.map(([f]) => f), ALLOWED[0]!, 'shared/probeCircleB.ts']);
  report = { out: r.stdout + r.stderr, status: r.status };
}, 120_000);

describe('import rules of docs/architecture.md', () => {
  it('the project as it is passes', () => {
    const r = cruise(ROOT, FOLDERS);
    expect(r.stdout + r.stderr).toContain('no dependency violations');
    expect(r.status).toBe(0);
  });

  it.each(PROBES.map(([file, , rule]) => [file, rule] as const))('a file %s breaking %s fails the check', (file, rule) => {
    expect(report.status).not.toBe(0);
    const lines = report.out.split('\n').filter((l) => l.includes(rule) && l.includes(file));
    expect(lines, `no "${rule}" violation reported for ${file} in:\n${report.out}`).not.toEqual([]);
  });

  it("a feature may import another through that feature's index.ts", () => {
    expect(report.out).not.toContain(ALLOWED[0]);
  });
});
