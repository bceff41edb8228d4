import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { AUDITOR_NO_KEY } from '../../../shared/ipc.ts';
import { useDeskQuery } from '../desk/hooks.ts';
import { pagePath, type PagePath } from './paths.ts';

/** The pages that read the exchange or send to it: an auditor profile (no key) has nothing to show on them. */
export const KEYED_PAGES: ReadonlySet<PagePath> = new Set<PagePath>([
  'overview',
  'sub-accounts',
  'withdrawals',
  'deposits',
  'transfers',
  'orders',
  'payouts',
  'small-balances',
  'rebalance',
  'activity',
]);

/** What such a page says for an auditor profile, in place of the errors its reads would meet. */
export function AuditorNotice({ title }: { title: string }) {
  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>{title}</h1>
      </header>
      <div className="notice" data-testid="auditor-profile">
        <p>
          <strong>{AUDITOR_NO_KEY}.</strong> It reads and verifies the approvals&apos; queue and records, and signs and sends nothing.
        </p>
        <p>
          See the <Link to={pagePath('approvals')}>Approvals</Link> and the <Link to={pagePath('journal')}>Journal</Link> (Verify of the
          team&apos;s records); to work with the exchange, choose a profile with a key in <Link to={pagePath('settings')}>Settings</Link>.
        </p>
      </div>
    </section>
  );
}

/**
 * `Page`, unless the active profile is an auditor's: then the notice, and none of the page's reads are
 * asked. The profile is the status bar's query, so it is in the cache before a page opens.
 */
export function keyedPage(Page: ComponentType, title: string): ComponentType {
  function Keyed() {
    const profile = useDeskQuery('profileCurrent', {});
    if (profile.data?.auditor) return <AuditorNotice title={title} />;
    // Not known yet: nothing rather than a page whose reads an auditor profile would refuse.
    if (profile.isPending) return null;
    return <Page />;
  }
  Keyed.displayName = `Keyed(${title})`;
  return Keyed;
}
