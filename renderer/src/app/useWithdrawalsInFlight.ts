/**
 * How many withdrawals are on their way (sent, not yet final), for the status bar. The withdrawal
 * history cache (the history issue) fills this in; until then the desk does not know, and says nothing
 * rather than show a number it has not counted.
 */
export function useWithdrawalsInFlight(): number | null {
  return null;
}
