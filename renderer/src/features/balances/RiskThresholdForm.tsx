import { useState } from 'react';
import { ratioAsPercent, thresholdFromPercent } from '../../../../shared/risk.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';

/** The sub-account's risk threshold, read and typed as a percentage like the risk it is compared with. */
export function RiskThresholdForm({ uid, current }: { uid: string; current: string }) {
  const setThreshold = useDeskMutation('balancesSetThreshold');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (!text.trim()) {
            setProblem(null);
            setThreshold.mutate({ uid, risk_threshold: null });
            return;
          }
          const parsed = thresholdFromPercent(text);
          if ('problem' in parsed) return setProblem(parsed.problem);
          setProblem(null);
          setThreshold.mutate({ uid, risk_threshold: parsed.ratio });
        }}
      >
        <span data-testid="risk-threshold">Alert when the risk falls below {ratioAsPercent(current)} (110% is liquidation)</span>
        <label>
          <input
            aria-label="Risk threshold (%)"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `threshold-problem-${uid}` : undefined}
            className="narrow"
            placeholder="e.g. 150"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />{' '}
          %
        </label>
        <button type="submit">Set threshold</button>
        <span className="muted small">empty for the default</span>
      </form>
      {problem && (
        <p id={`threshold-problem-${uid}`} className="field-error" role="alert">
          {problem}
        </p>
      )}
      {setThreshold.error && <ErrorPanel error={setThreshold.error} />}
    </>
  );
}
