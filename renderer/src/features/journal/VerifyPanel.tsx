import type { JournalVerifyAnswer } from '../../../../shared/journal.ts';

const JOURNAL_NAMES = { profile: "This profile's journal", governance: 'The approvals journal' } as const;

/** What Verify found, journal by journal: the first entry that fails and why, or how many entries checked. */
export function VerifyPanel({ answer }: { answer: JournalVerifyAnswer }) {
  return (
    <div className={answer.verified ? 'notice' : 'error-panel'} data-testid="verify-result">
      <strong>{answer.verified ? 'Every entry verifies.' : 'The journal does not verify.'}</strong>
      <ul>
        {answer.journals.map((j) => (
          <li key={j.journal} data-journal={j.journal}>
            {JOURNAL_NAMES[j.journal]}:{' '}
            {j.ok ? (
              `${j.entries} entries, every MAC${j.journal === 'governance' ? ' and operator signature' : ''} and the sealed head check.`
            ) : (
              <>
                fails
                {j.entry !== null ? (
                  <>
                    {' '}
                    at <strong>entry {j.entry}</strong>
                  </>
                ) : null}
                . {j.reason}
                {j.missing > 0 ? ` (${j.missing} missing)` : ''}
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
