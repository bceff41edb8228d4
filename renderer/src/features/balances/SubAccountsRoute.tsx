import { SubAccountDetail } from './SubAccountDetail.tsx';
import { SubAccountsPage } from './SubAccountsPage.tsx';
import { useSubAccountUid } from './route.ts';

/** #/sub-accounts is the matrix; #/sub-accounts/<uid> one sub-account, so a deep link survives a reload. */
export default function SubAccountsRoute() {
  const uid = useSubAccountUid();
  return uid ? <SubAccountDetail uid={uid} /> : <SubAccountsPage />;
}
