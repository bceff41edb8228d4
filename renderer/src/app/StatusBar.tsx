import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import type { EventPayload, ProfileSummary, VaultStatus } from '../../../shared/ipc.ts';
import { useDesk, type ConnectionState } from '../desk/DeskProvider.tsx';
import { useDeskEvent, useDeskQuery } from '../desk/hooks.ts';
import { useWithdrawalsInFlight } from './useWithdrawalsInFlight.ts';
import { unreadText } from '../../../shared/unread.ts';

function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ago` : `${Math.floor(m / 60)} h ago`;
}

function lockText(v: VaultStatus | undefined): string {
  if (!v) return '…';
  if (v.locked) return 'Locked';
  if (v.backend === 'safeStorage') return 'Keys in the system keychain';
  return v.passphrase_set ? 'Unlocked' : 'No passphrase set';
}

/** The link to the exchange as the last calls found it; "the Sandbox" when that is what the profile reaches. */
export function connectionText(
  c: ConnectionState,
  profile: ProfileSummary | null | undefined,
  now: number,
): { text: string; bad: boolean } {
  const who = profile?.environment === 'sandbox' ? 'the Sandbox' : 'the exchange';
  const Who = who[0]!.toUpperCase() + who.slice(1);
  if (c.sandbox?.state === 'down') return { text: 'The Sandbox stopped; restarting it…', bad: true };
  const restarted = c.sandbox?.state === 'restarted' ? ` · Sandbox restarted ${age(now - c.sandbox.at)}` : '';
  if (c.lastFailure && (c.lastAnswerAt === null || c.lastFailure.at > c.lastAnswerAt)) {
    if (c.lastFailure.host)
      return { text: `The desk's host does not answer (${age(now - c.lastFailure.at)}): is it still running?`, bad: true };
    return { text: `${Who} did not answer (${c.lastFailure.title}, ${age(now - c.lastFailure.at)})${restarted}`, bad: true };
  }
  if (c.lastAnswerAt === null) return { text: `Waiting for ${who}…${restarted}`, bad: false };
  return { text: `${Who} answered ${age(now - c.lastAnswerAt)}${restarted}`, bad: false };
}

/** The connection's news, without the ticking age, for screen readers. */
function announcement(c: ConnectionState, profile: ProfileSummary | null | undefined): string {
  const text = connectionText(c, profile, 0).text;
  if (c.sandbox?.state === 'down' || (c.lastFailure && (c.lastAnswerAt === null || c.lastFailure.at > c.lastAnswerAt)))
    return text.replace(/ \(.*$/, '');
  return c.sandbox?.state === 'restarted' ? 'Sandbox restarted' : '';
}

function budgetText(r: EventPayload<'rateLimits'> | null): string {
  const busiest = [...(r?.buckets ?? [])].sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0];
  if (!busiest) return 'Requests within limits';
  const name = busiest.key.replace(/^[^:]*:/, '');
  const paused = busiest.paused_until_ms !== null ? `, paused until ${new Date(busiest.paused_until_ms).toLocaleTimeString()}` : '';
  return `${name}: ${Math.max(0, busiest.remaining)}/${busiest.limit} left, ${busiest.queued} waiting${paused}`;
}

/** Always in view: the profile, the lock, the connection, the request budget, withdrawals on their way. */
export function StatusBar() {
  const desk = useDesk();
  const connection = useStore(desk.connection);
  const profile = useDeskQuery('profileCurrent', {});
  const vault = useDeskQuery('vaultStatus', {});
  const limits = useDeskEvent('rateLimits');
  const inFlight = useWithdrawalsInFlight();
  // Outflows the desk did not send stay in view on every page until an operator acknowledges them.
  const unsent = useDeskQuery('historyStatus', {}).data?.unsent ?? 0;
  // Records the latest answers set aside as malformed: each list that holds one says which, where it is shown.
  const unread = useDeskQuery('unreadRecords', {}).data?.count ?? 0;
  const now = useNow(5000);
  const link = connectionText(connection, profile.data, now);
  return (
    <footer className="statusbar" aria-label="Status">
      <span data-testid="profile">
        {profile.data ? (
          <>
            <span className={`env env-${profile.data.environment}`}>{profile.data.environment}</span> {profile.data.name}
            <span className="muted"> · key {profile.data.key_masked}</span>
          </>
        ) : profile.data === null ? (
          <Link to="/settings">No profile: add one in Settings</Link>
        ) : (
          '…'
        )}
      </span>
      <span data-testid="lock-state">{lockText(vault.data)}</span>
      <span data-testid="connection" className={link.bad ? 'bad' : undefined}>
        {link.text}
      </span>
      {/* Read out when the link changes, not every time its age ticks. */}
      <span className="sr-only" role="status">
        {announcement(connection, profile.data)}
      </span>
      <span data-testid="rate-limits">{budgetText(limits)}</span>
      {inFlight !== null && <span data-testid="withdrawals-in-flight">{inFlight} withdrawals on their way</span>}
      {unread > 0 && (
        <span className="bad" data-testid="unread-records">
          {unreadText(unread)}
        </span>
      )}
      {unsent > 0 && (
        <Link className="bad" data-testid="outflows-unsent" to="/withdrawals">
          {unsent} {unsent === 1 ? 'outflow' : 'outflows'} not sent by this desk
        </Link>
      )}
    </footer>
  );
}
