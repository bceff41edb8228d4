import { withWords } from '../../components/withWords.ts';
import { lazy, Suspense } from 'react';
import { SubAccountsPage } from './SubAccountsPage.tsx';
import { useIncidentUid, useSubAccountUid } from './route.ts';

// The matrix is what a start on this address paints first: one sub-account's page and its incident page
// (forms, their schemas) load only when asked for (docs/performance.md §Opening the desk).
const SubAccountDetail = lazy(() => withWords(import('./SubAccountDetail.tsx')).then((m) => ({ default: m.SubAccountDetail })));
const IncidentPage = lazy(() => withWords(import('../subaccounts/index.ts')).then((m) => ({ default: m.IncidentPage })));

/** #/sub-accounts is the matrix; #/sub-accounts/<uid> one sub-account, so a deep link survives a reload. */
export default function SubAccountsRoute() {
  const uid = useSubAccountUid();
  const incident = useIncidentUid();
  if (!incident && !uid) return <SubAccountsPage />;
  return (
    <Suspense fallback={<p className="muted">Loading the page…</p>}>
      {incident ? <IncidentPage uid={incident} /> : <SubAccountDetail uid={uid!} />}
    </Suspense>
  );
}
