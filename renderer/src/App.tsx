import type { ReactElement } from 'react';
import { ErrorPanel } from './components/ErrorPanel.tsx';
import { LockScreen } from './components/LockScreen.tsx';
import { RateLimitBar } from './components/RateLimitBar.tsx';
import { useInvalidateOnEvents } from './hooks/useDeskEvents.ts';
import { useReportActivity } from './hooks/useReportActivity.ts';
import { useDeskQuery } from './hooks/useDeskQuery.ts';
import { ApprovalsPage } from './features/approvals/ApprovalsPage.tsx';
import { FreezeBanner } from './features/approvals/FreezeBanner.tsx';
import { WithdrawalsPage } from './features/approvals/WithdrawalsPage.tsx';
import { ActivityPage } from './pages/Activity.tsx';
import { Overview } from './pages/Overview.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { useRoute, type Route } from './state/route.ts';

function ProfileBadge() {
  const profile = useDeskQuery('profileCurrent', {});
  if (profile.isError) return <ErrorPanel error={profile.error} />;
  if (profile.data === null) return <a href="#/settings">No profile: add one in Settings</a>;
  if (!profile.data) return null;
  return (
    <div className="profile" data-testid="profile">
      <span className={`env env-${profile.data.environment}`}>{profile.data.environment}</span>
      <span>{profile.data.name}</span>
      <span className="muted small">key {profile.data.key_masked}</span>
    </div>
  );
}

const PAGES: Record<Route, { title: string; render: () => ReactElement }> = {
  overview: { title: 'Overview', render: () => <Overview /> },
  withdrawals: { title: 'Withdrawals', render: () => <WithdrawalsPage /> },
  approvals: { title: 'Approvals', render: () => <ApprovalsPage /> },
  activity: { title: 'Activity', render: () => <ActivityPage /> },
  settings: { title: 'Settings', render: () => <SettingsPage /> },
};

export function App() {
  useInvalidateOnEvents();
  const route = useRoute();
  const vault = useDeskQuery('vaultStatus', {});
  useReportActivity();
  if (vault.data?.locked) return <LockScreen keychain={vault.data.backend === 'safeStorage'} />;
  return (
    <div className="shell">
      <nav className="sidebar">
        <div className="brand">Treasury Desk</div>
        {(Object.keys(PAGES) as Route[]).map((r) => (
          <a key={r} className={r === route ? 'active' : ''} href={`#/${r}`}>{PAGES[r].title}</a>
        ))}
      </nav>
      <main>
        <div className="topbar"><FreezeBanner /><ProfileBadge /></div>
        {PAGES[route].render()}
        <RateLimitBar />
      </main>
    </div>
  );
}
