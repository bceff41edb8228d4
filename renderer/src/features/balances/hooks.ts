import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { EventPayload } from '../../../../shared/ipc.ts';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { deskKeys } from '../../desk/queryKeys.ts';
import { useDeskQuery } from '../../desk/hooks.ts';

/** Queries of this feature that a finished load or a new alert makes stale (and only those). */
const LOAD_KEYS = ['balancesMatrix', 'balancesSubAccount', 'balanceAlerts', 'balancesMain'] as const;

/** Follows balance loads: the latest progress, and a refetch of the matrix when a load ends. */
export function useBalancesProgress(): EventPayload<'balancesProgress'> | null {
  const qc = useQueryClient();
  const desk = useDesk();
  const [progress, setProgress] = useState<EventPayload<'balancesProgress'> | null>(null);
  useEffect(() => {
    // A finished load is the only progress event that changes what the queries show (shared/ipcStale.ts
    // cannot say "only when done"); alerts are in the stale map.
    return desk.on('balancesProgress', (p) => {
      setProgress(p);
      if (p.done) for (const k of LOAD_KEYS) void qc.invalidateQueries({ queryKey: deskKeys[k].all });
    });
  }, [qc, desk]);
  return progress;
}

/** The operator's auto-refresh interval in ms (undefined when off), for the Overview's queries. */
export function useAutoRefreshMs(): number | undefined {
  const s = useDeskQuery('balancesSettingsGet', {});
  const sec = s.data?.auto_refresh_seconds ?? 300;
  return sec === 0 ? undefined : sec * 1000;
}
