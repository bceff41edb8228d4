import { useDeskQuery } from '../desk/hooks.ts';

/** How many withdrawals are on their way (sent, not yet final), for the status bar: the history cache counts them. */
export function useWithdrawalsInFlight(): number | null {
  return useDeskQuery('historyStatus', {}).data?.in_flight ?? null;
}
