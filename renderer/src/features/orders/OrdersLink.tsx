import { useDeskQuery } from '../../desk/hooks.ts';

/** The Orders page of one sub-account, offered on its row only when the profile holds its key (that key signs). */
export function OrdersLink({ uid }: { uid: string }) {
  const profile = useDeskQuery('profileCurrent', {});
  if (!profile.data?.sub_keys.some((k) => k.uid === uid)) return null;
  return (
    <a href={`#/orders?sub=${uid}`} className="small" aria-label={`Orders of sub-account ${uid}`} data-testid={`orders-${uid}`}>
      Orders
    </a>
  );
}
