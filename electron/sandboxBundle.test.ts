import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSandboxBundle, SANDBOX_BUNDLE } from './sandboxBundle.ts';

// Every launcher runs the Sandbox's bundle: a test run after an edit of the Sandbox must run the edit,
// and a run with nothing changed must not pay for a build. On a copy of the project's sources.

const ROOT = join(import.meta.dirname, '..');
const root = mkdtempSync(join(tmpdir(), 'td-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the Sandbox bundle', () => {
  it('is built when missing, kept while its sources stay, and built again after an edit', async () => {
    for (const d of ['simulator', 'shared']) cpSync(join(ROOT, d), join(root, d), { recursive: true });
    mkdirSync(join(root, 'electron'));
    cpSync(join(ROOT, 'electron', 'sandboxBundle.ts'), join(root, 'electron', 'sandboxBundle.ts'));
    cpSync(join(ROOT, 'package-lock.json'), join(root, 'package-lock.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));

    const out = await ensureSandboxBundle(root);
    expect(out).toBe(join(root, SANDBOX_BUNDLE));
    const first = statSync(out).mtimeMs;
    await ensureSandboxBundle(root);
    expect(statSync(out).mtimeMs).toBe(first);

    appendFileSync(join(root, 'simulator', 'main.ts'), "\nprocess.env.SANDBOX_BUNDLE_EDIT = 'seen';\n");
    await ensureSandboxBundle(root);
    expect(readFileSync(out, 'utf8')).toContain('SANDBOX_BUNDLE_EDIT');
  }, 60_000);
});
