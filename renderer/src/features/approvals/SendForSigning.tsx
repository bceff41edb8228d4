import type { ReactNode } from 'react';
import type { ChannelRequest, Review } from '../../../../shared/ipc.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { RequestOutcome } from './RequestOutcome.tsx';
import { VerdictTable } from './Verdict.tsx';

/**
 * The end of every review: the policy's verdict, then "Send for signing", which drafts the write for the
 * confirmation window, then follows the draft in place to its final status. A blocked write has no send
 * button; `what` names it in the refusal ("write", "order"); `afterDraft` is what the page offers once the
 * draft is made.
 */
export function SendForSigning({
  review,
  write,
  what,
  onBack,
  afterDraft,
}: {
  review: Review;
  write: ChannelRequest<'approvalsDraft'>['write'];
  what: string;
  onBack: () => void;
  afterDraft?: ReactNode;
}) {
  const draft = useDeskMutation('approvalsDraft');
  const blocked = review.verdict.decision === 'block';
  return (
    <>
      <VerdictTable verdict={review.verdict} />
      {draft.isError && <ErrorPanel error={draft.error} />}
      {draft.data ? (
        <>
          <RequestOutcome requestRef={draft.data.ref} title={draft.data.title} onAgain={() => draft.reset()} />
          {afterDraft}
        </>
      ) : (
        <div className="actions">
          <button type="button" onClick={onBack}>
            Edit
          </button>
          {!blocked && (
            <button className="primary" type="button" disabled={draft.isPending} onClick={() => draft.mutate({ write })}>
              Send for signing
            </button>
          )}
        </div>
      )}
      {blocked && (
        <p className="field-error" role="alert">
          The policy blocks this {what}: it cannot be sent.
        </p>
      )}
    </>
  );
}
