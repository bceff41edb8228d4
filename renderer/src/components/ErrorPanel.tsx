import { errorTitle, operatorMessage } from '../desk/desk.ts';

/** An error in words: the exchange's label as the title, then the sentence (never a channel name or field path). */
export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="error-panel" role="alert">
      <strong>{errorTitle(error)}</strong>
      <p>{operatorMessage(error)}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
