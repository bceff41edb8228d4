/**
 * The Orders page of one sub-account, offered on its row only when the profile holds its key (that key
 * signs). `keyed`: the sub-accounts whose keys the profile holds, read once by the page for every row
 * (a read per row was a query observer per row drawn: docs/performance.md §Opening the desk).
 */
export function OrdersLink({ uid, keyed }: { uid: string; keyed: ReadonlySet<string> }) {
  if (!keyed.has(uid)) return null;
  return (
    <a href={`#/orders?sub=${uid}`} className="small" aria-label={`Orders of sub-account ${uid}`} data-testid={`orders-${uid}`}>
      Orders
    </a>
  );
}
