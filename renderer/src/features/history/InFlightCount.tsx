import { useHistoryStatus } from './queries.ts';

/** For the shell: withdrawals not final yet, kept current by the `history` event. */
export function InFlightCount() {
  const s = useHistoryStatus();
  if (!s.data) return null;
  return (
    <>
      {s.data.in_flight > 0 && <span className="badge" data-testid="shell-in-flight" title="Withdrawals not final yet">{s.data.in_flight}</span>}
      {s.data.unsent > 0 && <span className="badge bad" data-testid="shell-unsent" title="Outflows not sent by this desk">{s.data.unsent}!</span>}
    </>
  );
}
