import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { EventPayload } from '../../../../shared/ipc.ts';
import { deskApi } from '../../desk/desk.ts';
import { useDeskQuery } from '../../hooks/useDeskQuery.ts';

/** Queries of this feature that a finished load or a new alert makes stale (and only those). */
const LOAD_KEYS = ['balancesMatrix', 'balancesSubAccount', 'balanceAlerts'];

/** Follows balance loads: the latest progress, and a refetch of the matrix when a load ends. */
export function useBalancesProgress(): EventPayload<'balancesProgress'> | null {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<EventPayload<'balancesProgress'> | null>(null);
  useEffect(() => {
    const desk = deskApi();
    if (!desk) return;
    const offProgress = desk.on('balancesProgress', (p) => {
      setProgress(p);
      if (p.done) for (const k of LOAD_KEYS) void qc.invalidateQueries({ queryKey: [k] });
    });
    const offAlert = desk.on('balanceAlert', () => {
      for (const k of LOAD_KEYS) void qc.invalidateQueries({ queryKey: [k] });
    });
    return () => {
      offProgress();
      offAlert();
    };
  }, [qc]);
  return progress;
}

/** The operator's auto-refresh interval in ms (undefined when off), for the Overview's queries. */
export function useAutoRefreshMs(): number | undefined {
  const s = useDeskQuery('balancesSettingsGet', {});
  const sec = s.data?.auto_refresh_seconds ?? 300;
  return sec === 0 ? undefined : sec * 1000;
}
