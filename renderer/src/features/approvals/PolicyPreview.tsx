import { useDeferredValue } from 'react';
import type { Policy } from '../../../../shared/api/policy.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { ReplaySummary } from '../../components/ReplaySummary.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';

/** The candidate policy replayed against the last 30 days, before it is proposed (the core reads; nothing is stored). */
export function PolicyPreview({ policy }: { policy: Policy }) {
  // Typing in a row changes the candidate at every key: the replay follows the last one asked.
  const candidate = useDeferredValue(policy);
  const replay = useDeskQuery('policyReplay', { policy: candidate });
  if (replay.isError) return <ErrorPanel error={replay.error} onRetry={() => void replay.refetch()} />;
  if (!replay.data) return <p className="muted small">Replaying the last 30 days under this policy…</p>;
  return <ReplaySummary replay={replay.data} />;
}
