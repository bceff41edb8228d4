import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LABEL_SENTENCES } from '../shared/api/labels.ts';
import { WITHDRAWAL_CREATE_ONLY_STATUSES, WITHDRAWAL_STATUSES } from '../shared/api/statuses.ts';

// shared/api holds the spec as data; this checks it against the spec's own text where the spec is
// beside the repository (as in CI and every session), so a label or status cannot be forgotten.
const SPEC = join(import.meta.dirname, '..', '..', 'shared', 'spec', 'api-v4.md');
const spec = existsSync(SPEC) ? readFileSync(SPEC, 'utf8') : null;

function section(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  const end = text.indexOf(to, start + from.length);
  return text.slice(start, end < 0 ? undefined : end);
}

describe.skipIf(spec === null)(`spec coverage${spec === null ? ` [skipped: ${SPEC} is absent]` : ''}`, () => {
  it('every §7 error label has a sentence an operator can act on', () => {
    const labels = new Set([...section(spec!, '## 7. Errors', '## 8.').matchAll(/`([A-Z][A-Za-z0-9_]+)`/g)].map((m) => m[1]!));
    expect(labels.size).toBeGreaterThan(150);
    const missing = [...labels].filter((l) => !(l in LABEL_SENTENCES));
    expect(missing).toEqual([]);
  });

  it('every §3.1 withdrawal status is known, with its meaning', () => {
    const statuses = [...section(spec!, '### 3.1', '### 3.2').matchAll(/`([A-Z]+)`/g)]
      .map((m) => m[1]!)
      .filter((s) => s !== 'INVALID_WITHDRAW_CANCEL_STATUS');
    const known: Record<string, string> = { ...WITHDRAWAL_STATUSES, ...WITHDRAWAL_CREATE_ONLY_STATUSES };
    expect(statuses.filter((s) => !(s in known))).toEqual([]);
  });
});
