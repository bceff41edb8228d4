import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../../shared/ipc.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { sandboxCore } from '../testkit/sandboxCore.ts';
import { postgresMissing, startPostgres, type TestPostgres } from './testkit/postgres.ts';
import { ok, openTeamCore, PASS, type Desk } from './testkit/sandboxTeam.ts';

// A desk whose clock runs two hours ahead (docs/team.md §Time): the store's now() is the clock every desk
// of the team sees, so the desk is told on its team card, in words, and writes no record, whose signed
// time would drag the queue's times forward. A desk whose clock agrees with the store's writes as before.

const TWO_HOURS = 2 * 3_600_000;
const missing = postgresMissing();

describe.skipIf(missing !== null)(`a desk whose clock is far from the store's${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const sb = useSandbox('team-clock', { limits: false });
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.destroy();
  });

  const clockOf = async (desk: Desk) => (await ok<TeamStatus>(desk.invoke('teamStatus', {}))).team?.clock;

  it('tells a desk two hours ahead so, and refuses its records; a desk on time writes', async () => {
    const url = await server.newDatabase('clock');
    const dataDir = join(sb.dir, 'ahead');
    mkdirSync(join(dataDir, 'approvals', 'operators'), { recursive: true });
    const ahead = sandboxCore(sb, { dataDir, team: { url, domain: 'sandbox', recheckMs: 300 }, now: () => Date.now() + TWO_HOURS });
    const onTime = openTeamCore(sb, 'on-time', { url, recheckMs: 300 });
    try {
      const first = await ahead.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice });
      expect(first.ok ? 'written' : first.error.message).toMatch(
        /^This desk's clock is 2 h 0 min ahead of the team store's \(the database's now\(\)\): it writes no team record until its clock is set right/,
      );
      const told = await clockOf(ahead);
      expect(told!.offset_ms).toBeGreaterThan(TWO_HOURS - 5_000);
      expect(told!.offset_ms).toBeLessThan(TWO_HOURS + 5_000);
      expect(told!.refusal).toMatch(/2 h 0 min ahead of the team store's/);

      // The desk on time is told nothing and founds the team's records.
      await ok(onTime.invokeConfirm('confirmCreateFirstOperator', { name: 'Alice', passphrase: PASS.Alice }));
      const fine = await clockOf(onTime);
      expect(Math.abs(fine!.offset_ms)).toBeLessThan(5_000);
      expect(fine!.refusal).toBeNull();
    } finally {
      await ahead.close();
      await onTime.close();
    }
  }, 60_000);
});
