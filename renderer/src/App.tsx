import { ErrorPanel } from './components/ErrorPanel.tsx';
import { useDeskQuery } from './hooks/useDeskQuery.ts';
import { Overview } from './pages/Overview.tsx';

function ProfileBadge() {
  const profile = useDeskQuery('profileCurrent', {});
  if (profile.isError) return <ErrorPanel error={profile.error} />;
  if (!profile.data) return null;
  return (
    <div className="profile" data-testid="profile">
      <span className={`env env-${profile.data.environment}`}>{profile.data.environment}</span>
      <span>{profile.data.name}</span>
      <span className="muted small">key {profile.data.key_masked}</span>
    </div>
  );
}

export function App() {
  return (
    <div className="shell">
      <nav className="sidebar">
        <div className="brand">Treasury Desk</div>
        <a className="active" href="#/">Overview</a>
      </nav>
      <main>
        <div className="topbar"><ProfileBadge /></div>
        <Overview />
      </main>
    </div>
  );
}
