import { useEffect, useState } from 'react';
import type { EventPayload } from '../../../../shared/ipc.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';

/**
 * Follows balance loads: the latest progress. The refetch when a load ends is the shell's, for every
 * page (desk/hooks.ts, LOAD_DONE_READS): a transfer form shows sub-account balances too.
 */
export function useBalancesProgress(): EventPayload<'balancesProgress'> | null {
  const desk = useDesk();
  const [progress, setProgress] = useState<EventPayload<'balancesProgress'> | null>(null);
  useEffect(() => desk.on('balancesProgress', setProgress), [desk]);
  return progress;
}

/** The operator's auto-refresh interval in ms (undefined when off), for the Overview's queries. */
export function useAutoRefreshMs(): number | undefined {
  const s = useDeskQuery('balancesSettingsGet', {});
  const sec = s.data?.auto_refresh_seconds ?? 300;
  return sec === 0 ? undefined : sec * 1000;
}
