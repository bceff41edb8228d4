import type { ApiClient } from '../client/client.ts';
import type { SubKeyClients } from '../client/subKeys.ts';
import type { Journal } from '../journal/journal.ts';
import type { JournalKey } from '../journal/mac.ts';
import { journalIdOf } from '../journal/verify.ts';
import { describeFindings, reconcile } from '../reconcile/reconcile.ts';
import { readWatermark, watermarkPath, writeWatermark } from '../reconcile/watermark.ts';
import type { WriteExecutor } from '../writes/executor.ts';

// A restore of the data folder is an ordinary event (docs/architecture.md §Persistence): before the
// executor sends anything after a start or an unlock, the exchange's records of this desk's ids are read
// against the journal (reconcile/reconcile.ts). Behind them, the journal is damaged and nothing is sent;
// unreadable, it is tried again (nothing is sent meanwhile); in step, the executor resumes.

/** A reconciliation that could not read the exchange is tried again after this pause, doubling up to the last. */
const RECONCILE_RETRY_MS = [2_000, 5_000, 15_000, 60_000];

export interface ReconcileThenResumeOptions {
  id: string;
  journal: Journal;
  path: string;
  key: JournalKey;
  client: ApiClient;
  subKeys: SubKeyClients;
  writes: WriteExecutor;
  /** Whether `writes` is still the active session's executor: once it is not, the reconciliation stops. */
  mine: () => boolean;
  /** Settles when the reconciliation with the exchange may begin. */
  backgroundAfter?: () => Promise<void>;
  /** Why the executor still waits, each time the reason changes. */
  waiting: (reason: string) => void;
  /** The journal is behind the exchange: `found` records of the desk's ids it does not hold, read up to `through`. */
  behind: (reason: string, found: number, through: number) => void;
  /** The journal is in step with the exchange: the executor may send. */
  inStep: () => void;
  log?: (line: string) => void;
}

export async function reconcileThenResume(o: ReconcileThenResumeOptions): Promise<void> {
  const { id, journal, path, key, client, subKeys, mine } = o;
  // Called while the session is being made: it is the current one only after the first await.
  await (o.backgroundAfter?.() ?? Promise.resolve());
  for (let attempt = 0; ; attempt++) {
    if (!mine()) return;
    try {
      const intents = journal.intents();
      const pairs = new Map<string, { pair: string; account?: string; client: ApiClient }>();
      for (const v of intents) {
        if (v.kind !== 'spot_order') continue;
        const account = v.body.account === undefined ? undefined : String(v.body.account);
        const k = `${v.signer ?? 'main'} ${String(v.body.currency_pair)} ${account ?? ''}`;
        if (!pairs.has(k))
          pairs.set(k, {
            pair: String(v.body.currency_pair),
            ...(account ? { account } : {}),
            client: v.signer ? subKeys.client(v.signer) : client,
          });
      }
      const r = await reconcile({
        client,
        intents,
        watermark: readWatermark(watermarkPath(path), key, journalIdOf(path)),
        key: key(),
        orderReaders: [...pairs.values()],
        now: Date.now(),
      });
      if (!mine()) return;
      if (r.findings.length) return o.behind(describeFindings(r.findings), r.findings.length, r.through);
      writeWatermark(watermarkPath(path), key, journalIdOf(path), { through: r.through });
      o.log?.(`[core] journal of profile ${id} reconciled with the exchange (${r.requests} requests); writes resume`);
      break;
    } catch (e) {
      if (!mine()) return;
      const reason = `the desk could not reconcile its journal with the exchange (${(e as Error).message}); it tries again, and sends nothing until it can`;
      o.waiting(reason);
      o.log?.(`[core] ${reason}`);
      await new Promise((r) => setTimeout(r, RECONCILE_RETRY_MS[Math.min(attempt, RECONCILE_RETRY_MS.length - 1)]).unref?.());
    }
  }
  o.inStep();
}
