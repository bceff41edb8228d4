import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { NavLink, Outlet, useNavigation } from 'react-router';
import { useDesk } from '../desk/DeskProvider.tsx';
import { useDeskEventsIntoCache, useDeskQuery } from '../desk/hooks.ts';
import { FreezeBanner } from '../features/approvals/FreezeBanner.tsx';
import { prefetchFirstPage } from '../features/history/queries.ts';
import { useBrowserNotifications } from '../features/history/useNotifications.ts';
import { NoticeTray } from '../features/notices/index.ts';
import { holdIdleWork, whenIdle } from '../components/whenIdle.ts';
import { withWords } from '../components/withWords.ts';
import { openingFigures } from './openingReads.ts';
import { PAGES } from './routes.ts';
import { StatusBar } from './StatusBar.tsx';
import { useAppliedTheme } from './theme.ts';
import { useReportActivity } from './useReportActivity.ts';

const HISTORY_PAGE = PAGES.find((p) => p.path === 'withdrawals')!;

// A locked vault is the rare start: the lock screen's form code stays out of the first paint (docs/performance.md §Opening the desk).
const LockScreen = lazy(() => withWords(import('../features/lock/LockScreen.tsx')).then((m) => ({ default: m.LockScreen })));

/** The frame around every page: the sidebar, the page in view, and the status bar; or the lock screen. */
export function Shell() {
  useDeskEventsIntoCache();
  useReportActivity();
  useAppliedTheme();
  useBrowserNotifications();
  const vault = useDeskQuery('vaultStatus', {});
  const navigation = useNavigation();
  const desk = useDesk();
  const qc = useQueryClient();
  // At the commit that shows the navigation under way, before the window can go idle waiting for the page.
  const moving = navigation.state !== 'idle';
  useLayoutEffect(() => holdIdleWork(moving), [moving]);
  const locked = vault.data?.locked ?? false;
  // The histories are where an operator goes from the Overview: their code is fetched at the first idle
  // moment, ahead of the charts, so that the click on the sidebar does not wait for it (docs/performance.md §Opening the desk). Not
  // before the opening page has shown its figures (openingReads.ts).
  useEffect(() => {
    let live = true;
    let cancel = () => {};
    void openingFigures().then(() => {
      if (live) cancel = whenIdle(() => void HISTORY_PAGE.load(), { first: true });
    });
    return () => {
      live = false;
      cancel();
    };
  }, []);
  const wasLocked = useRef(locked);
  useEffect(() => {
    // Back from the lock screen: focus goes to the page's heading, not to the body.
    if (wasLocked.current && !locked) document.querySelector<HTMLElement>('main h1')?.focus();
    wasLocked.current = locked;
  }, [locked]);
  if (locked)
    return (
      <Suspense fallback={<p role="status">Opening the lock screen…</p>}>
        <LockScreen keychain={vault.data?.backend === 'safeStorage'} waitMs={vault.data?.unlock_wait_ms ?? 0} />
      </Suspense>
    );
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Pages">
        <div className="brand">Treasury Desk</div>
        {PAGES.map((p) => (
          <NavLink
            key={p.path}
            to={`/${p.path}`}
            // The list's first rows are asked at the click, while the page's code loads, not once it has rendered.
            onClick={p.path === 'withdrawals' ? () => void prefetchFirstPage(qc, desk, 'withdrawals') : undefined}
          >
            {p.title}
          </NavLink>
        ))}
      </nav>
      <main aria-busy={navigation.state === 'loading'}>
        {/* On every page: the freeze when there is one, else the Freeze button and its shortcut. */}
        <div className="topbar">
          <NoticeTray />
          <FreezeBanner />
        </div>
        {navigation.state === 'loading' && (
          <p className="muted small" role="status">
            Loading the page…
          </p>
        )}
        <Outlet />
      </main>
      <StatusBar />
    </div>
  );
}
