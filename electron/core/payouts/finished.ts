import type { IntentView } from '../../../shared/ipc.ts';
import type { PayoutService } from './service.ts';

// A payout batch finished: told once, when the last of its rows comes to an end (sent, refused or
// skipped), with the counts its report gives. Rows end one by one through the executor's events; a
// finished row is looked up among the active profile's payout batches, so a batch is judged only when
// one of its own rows moved.

export interface PayoutWatch {
  service: () => PayoutService | null;
  batches: () => Promise<{ ref: string; payload: { rows: { ref: string }[] }; signed: boolean }[]>;
  notify: (n: { title: string; body: string; tag: string }) => void;
  log: (line: string) => void;
}

export function payoutFinishWatcher(w: PayoutWatch): (v: IntentView) => void {
  const told = new Set<string>();
  return (v) => {
    // A row counts as sent once the exchange accepted it (its report says so), not only once final.
    if (v.state === 'pending_approval' || v.state === 'approved' || v.state === 'in_flight') return;
    void (async () => {
      const service = w.service();
      if (!service) return;
      const batch = (await w.batches()).find((b) => b.signed && !told.has(b.ref) && b.payload.rows.some((r) => r.ref === v.id));
      if (!batch) return;
      const p = await service.progress(batch.ref);
      if (p.counts.pending > 0) return;
      told.add(batch.ref);
      w.notify({
        title: `Payout batch finished: ${p.title}`,
        body: `${p.counts.sent} sent, ${p.counts.refused} refused, ${p.counts.skipped} skipped. The report is on the Payouts page.`,
        tag: `payouts:${batch.ref}`,
      });
    })().catch((e: unknown) => w.log(`[payouts] could not tell whether a batch finished: ${(e as Error).message}`));
  };
}
