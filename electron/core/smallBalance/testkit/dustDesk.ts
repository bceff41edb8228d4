import { join } from 'node:path';
import { DeskApprovals } from '../../approvals/deskApprovals.ts';
import { sandboxProfile } from '../../profiles/sandbox.ts';
import { Session } from '../../session.ts';
import { dustServiceOf } from '../handlers.ts';
import type { DustService } from '../service.ts';
import { SESSION_WRITES } from '../../testkit/sandboxCore.ts';

// A desk over the Sandbox profile (its main key and every sub-account's key) with its own data folder:
// the session, the approvals and their dispatcher, and the small-balance service the page's channels use.
// Opened again over the same folder, it is the same desk restarted.

export interface DustDesk {
  session: Session;
  approvals: DeskApprovals;
  service(): DustService;
  close(): Promise<void>;
}

export function openDustDesk(dataDir: string, credentialsPath: string): DustDesk {
  let approvals: DeskApprovals | null = null;
  const session = new Session({
    ...SESSION_WRITES,
    builtIn: { ...sandboxProfile(credentialsPath), limitsOff: true },
    journalDir: join(dataDir, 'journals'),
    settleMs: () => 1500,
    hold: (id) => approvals?.frozenReason(id) ?? null,
    onWritesReady: () => void approvals?.dispatch(),
  });
  approvals = new DeskApprovals({ dataDir, session, vault: null, coolingOffMs: 0, onChange: () => {}, log: () => {} });
  session.start();
  const a = approvals;
  return {
    session,
    approvals: a,
    service: () => dustServiceOf({ session, approvals: a }),
    close: async () => {
      await a.close();
      await session.close();
    },
  };
}
