import { useDeskQuery } from '../../desk/hooks.ts';

const NAMES = { profile: 'Profile journal', governance: 'Approvals journal' } as const;

/**
 * The fingerprints of the keys the signed bundle is signed with: `npm run verify-journal` prints the same
 * figure for each journal, so an auditor can tell the bundle came from this desk and not from a look-alike.
 */
export function AuditKeys() {
  const keys = useDeskQuery('journalAuditKeys', {});
  if (!keys.data?.length) return null;
  return (
    <p className="small muted" data-testid="audit-keys">
      Signed bundle keys (compare with what <span className="mono">npm run verify-journal</span> prints):{' '}
      {keys.data.map((k, i) => (
        <span key={`${k.journal}:${k.id}`}>
          {i > 0 && '; '}
          {NAMES[k.journal]} <span className="mono">{k.id}</span>:{' '}
          <strong className="mono" data-journal={k.journal}>
            {k.fingerprint}
          </strong>
        </span>
      ))}
    </p>
  );
}
