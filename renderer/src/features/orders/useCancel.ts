import { useState } from 'react';
import type { ChannelRequest } from '../../../../shared/ipc.ts';
import { useDeskMutation } from '../../desk/hooks.ts';

type Write = ChannelRequest<'approvalsDraft'>['write'];

/**
 * A cancel is a write like any other: journaled, then sent exactly once. The default policy lets
 * cancels go without a signature (they move no money); a policy that governs them gets a draft signed
 * in the confirmation window instead, followed on the page (`drafted`) to its end.
 */
export function useCancel() {
  const review = useDeskMutation('approvalsReview');
  const prepare = useDeskMutation('writePrepare');
  const approve = useDeskMutation('writeApprove');
  const draft = useDeskMutation('approvalsDraft');
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [drafted, setDrafted] = useState<{ ref: string; title: string } | null>(null);
  const run = async (write: Write): Promise<void> => {
    setBusy(true);
    setError(null);
    setNote(null);
    setDrafted(null);
    try {
      const r = await review.mutateAsync({ write });
      if (r.verdict.decision === 'allow') {
        const intent = await prepare.mutateAsync({ write, note: 'from the Orders page' });
        const v = await approve.mutateAsync({ id: intent.id });
        setNote(
          v.state === 'refused'
            ? `The exchange refused the cancellation: ${v.reason ?? v.label ?? ''}`
            : v.state === 'done'
              ? 'Cancelled.'
              : 'Cancellation sent; its outcome shows on the Activity page.',
        );
      } else if (r.verdict.decision === 'require') {
        const t = await draft.mutateAsync({ write });
        setDrafted({ ref: t.ref, title: t.title });
      } else {
        setNote('The policy blocks this cancellation.');
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, note, drafted };
}
