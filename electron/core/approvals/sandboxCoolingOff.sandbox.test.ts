import { afterAll, describe, expect, it } from 'vitest';
import type { ApprovalsState } from '../../../shared/ipc.ts';
import { useSandbox } from '../testkit/sandbox.ts';
import { ok, sandboxCore } from '../testkit/sandboxCore.ts';

// The Sandbox's governance is play money (docs/approvals.md §Changes): a desk started without
// TREASURY_DESK_COOLING_OFF_HOURS puts a signed operator or policy change in force at once there, so a
// rehearsal team adds its second operator the same minute; stored profiles keep their 24 h.

const sb = useSandbox('sandbox-cooling-off', { limits: false });

describe("the Sandbox profile's cooling-off", () => {
  let desk: ReturnType<typeof sandboxCore> | null = null;
  afterAll(() => desk?.close());

  it('is none by default, and the Approvals page says whose wait it is', async () => {
    desk = sandboxCore(sb, { coolingOffMs: undefined });
    const s = await ok<ApprovalsState>(desk.invoke('approvalsState', {}));
    expect(s.cooling_off_hours).toBe(0);
    expect(s.cooling_off_variable).toBe(true);
  });
});
