import { SubAccountDetail } from './SubAccountDetail.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';
import { useIncidentUid, useSubAccountUid } from './route.ts';
import { IncidentPage } from '../subaccounts/index.ts';

/** #/sub-accounts is the matrix; #/sub-accounts/<uid> one sub-account, so a deep link survives a reload. */
export default function SubAccountsRoute() {
  const uid = useSubAccountUid();
  const incident = useIncidentUid();
  if (incident) return <IncidentPage uid={incident} />;
  return uid ? <SubAccountDetail uid={uid} /> : <SubAccountsPage />;
}
