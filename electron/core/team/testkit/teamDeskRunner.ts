// A team desk's core in a process of its own, for the take-over test to SIGKILL mid-send: the Sandbox
// profile over `<data dir>`, its governance on the team store at `<url>`, send leases of `<lease ms>`.
// It reads the team's approvals once (so that it hears other desks' notices and sends what they approve),
// prints READY, and runs until killed.
// Usage: tsx teamDeskRunner.ts <data dir> <sandbox credentials.json> <url> <lease ms> [<deadline ms> <settle ms>]
import { createCore } from '../../core.ts';
import { sandboxProfile } from '../../profiles/sandbox.ts';
import { TEST_WRITES } from '../../testkit/sandboxCore.ts';

const [dataDir, credentialsPath, url, leaseMs, deadlineMs, settleMs] = process.argv.slice(2);
if (!dataDir || !credentialsPath || !url || !leaseMs) {
  process.stderr.write('usage: teamDeskRunner <data dir> <credentials.json> <url> <lease ms>\n');
  process.exit(2);
}
const core = createCore({
  profile: { ...sandboxProfile(credentialsPath), limitsOff: true },
  dataDir,
  log: (line) => process.stderr.write(`${line}\n`),
  coolingOffMs: 0,
  team: { url, domain: 'sandbox', leaseMs: Number(leaseMs) },
  writes: deadlineMs && settleMs ? { requestTimeoutMs: Number(deadlineMs), settleMs: Number(settleMs) } : TEST_WRITES,
});
setInterval(() => undefined, 1000);
const r = await core.invoke('approvalsState', {});
if (!r.ok) {
  process.stderr.write(`approvals not read: ${JSON.stringify(r.error)}\n`);
  process.exit(1);
}
process.stdout.write('READY\n');
