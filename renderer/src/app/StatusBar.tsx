import { useEffect } from 'react';
import { useNow } from '../components/useNow.ts';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import type { ProfileSummary, VaultStatus } from '../../../shared/ipc.ts';
import type { RateLimits } from '../../../shared/channels/status.ts';
import { noteLink, useDesk, type ConnectionState } from '../desk/DeskProvider.tsx';
import { useDeskEvent, useDeskQuery } from '../desk/hooks.ts';
import { useWithdrawalsInFlight } from './useWithdrawalsInFlight.ts';
import { unreadText } from '../../../shared/unreadText.ts';
import { timeOfDay } from '../components/localTime.ts';
import { StatusParts, type StatusPart } from './StatusParts.tsx';

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

type Bucket = RateLimits['buckets'][number];

/** A bucket's key without the account it draws on, the rule it falls under and the method: "/wallet/total_balance". */
function bucketName(key: string): string {
  const name = key.replace(/^[^|]*\|/, '');
  return name.includes(':') ? name.replace(/^[^:]*:/, '').replace(/^[A-Z]+ /, '') : name;
}

const PAUSE_WHY: Record<NonNullable<Bucket['pause_reason']>, string> = {
  too_many_requests: 'the exchange answered 429 Too Many Requests',
  budget_spent: "the exchange said this window's budget is spent",
};

function bucketText(b: Bucket): string {
  const paused =
    b.paused_until_ms !== null
      ? `, paused until ${timeOfDay(b.paused_until_ms)}${b.pause_reason ? `: ${PAUSE_WHY[b.pause_reason]}` : ''}`
      : '';
  return `${bucketName(b.key)} ${b.used}/${b.limit}${b.queued ? `, ${b.queued} waiting` : ''}${paused}`;
}

/** Paused buckets first, then the fullest: the ones the operator waits on. */
function byUrgency(a: Bucket, b: Bucket): number {
  const pa = a.paused_until_ms !== null ? 0 : 1;
  const pb = b.paused_until_ms !== null ? 0 : 1;
  return pa - pb || b.used / b.limit - a.used / a.limit || b.queued - a.queued;
}

// Two fit one line of the status bar at 1024 px; the tooltip lists them all.
const SHOWN_BUCKETS = 2;

/** Each bucket in use; past the first few a count, with every one of them in the tooltip. */
function budget(r: RateLimits | undefined): { text: string; all: string } {
  const buckets = [...(r?.buckets ?? [])].sort(byUrgency).map(bucketText);
  if (!buckets.length) return { text: 'Requests within limits', all: '' };
  const more = buckets.length - SHOWN_BUCKETS;
  return { text: buckets.slice(0, SHOWN_BUCKETS).join(' · ') + (more > 0 ? ` · ${more} more` : ''), all: buckets.join('\n') };
}

/** Always in view: the profile, the lock, the connection, the request budget, withdrawals on their way. */
export function StatusBar() {
  const desk = useDesk();
  const connection = useStore(desk.connection);
  const profile = useDeskQuery('profileCurrent', {});
  const vault = useDeskQuery('vaultStatus', {});
  // The core's picture as the window mounts, then every change as it is pushed: a late window is never stale.
  const status = useDeskQuery('deskStatus', {});
  const pushed = useDeskEvent('rateLimits');
  const limits = budget(pushed ?? status.data?.rate_limits);
  useEffect(() => {
    if (status.data) noteLink(desk.connection, status.data.link);
  }, [desk, status.data]);
  const inFlight = useWithdrawalsInFlight();
  // Outflows the desk did not send stay in view on every page until an operator acknowledges them.
  const unsent = useDeskQuery('historyStatus', {}).data?.unsent ?? 0;
  // Records the latest answers set aside as malformed: each list that holds one says which, where it is shown.
  const unread = useDeskQuery('unreadRecords', {}).data?.count ?? 0;
  const now = useNow(5000);
  const link = connectionText(connection, profile.data, now);
  const parts: StatusPart[] = [
    {
      key: 'profile',
      testid: 'profile',
      node: profile.data ? (
        <>
          <span className={`env env-${profile.data.environment}`}>{profile.data.environment}</span> {profile.data.name}
          {profile.data.environment === 'sandbox' && (
            <strong data-testid="play-money" title="The Sandbox is an exchange on this computer: nothing done here reaches a real one.">
              {' '}
              · play money
            </strong>
          )}
          <span className="muted">{profile.data.auditor ? ' · auditor, no key' : ` · key ${profile.data.key_masked}`}</span>
        </>
      ) : profile.data === null ? (
        <Link to="/settings">No profile: add one in Settings</Link>
      ) : (
        '…'
      ),
    },
    { key: 'connection', testid: 'connection', className: link.bad ? 'bad' : undefined, node: link.text },
    ...(unsent > 0
      ? [
          {
            key: 'unsent',
            node: (
              <Link className="bad" data-testid="outflows-unsent" to="/withdrawals">
                {unsent} {unsent === 1 ? 'outflow' : 'outflows'} not sent by this desk
              </Link>
            ),
          },
        ]
      : []),
    ...(unread > 0 ? [{ key: 'unread', testid: 'unread-records', className: 'bad', node: unreadText(unread) }] : []),
    { key: 'lock', testid: 'lock-state', node: lockText(vault.data) },
    ...(inFlight !== null ? [{ key: 'in-flight', testid: 'withdrawals-in-flight', node: `${inFlight} withdrawals on their way` }] : []),
    { key: 'budget', testid: 'rate-limits', title: limits.all || undefined, node: limits.text },
  ];
  // In order of importance: what is wrong first; the parts that do not fit the line go behind "more".
  return (
    <footer className="statusbar" aria-label="Status">
      <StatusParts parts={parts} />
      {/* Read out when the link changes, not every time its age ticks. */}
      <span className="sr-only" role="status">
        {announcement(connection, profile.data)}
      </span>
    </footer>
  );
}
