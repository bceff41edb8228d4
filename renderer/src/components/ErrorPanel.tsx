import { errorDetails, errorField, errorTitle, operatorMessage } from '../desk/desk.ts';
import { RawDetails } from './RawDetails.tsx';

/**
 * An error in words: a title, the sentence an operator can act on, the field it concerns when it names
 * one, and the raw text (the exchange's label and message, the connection's error) only under "Details".
 */
export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const field = errorField(error);
  return (
    <div className="error-panel" role="alert">
      <strong>{errorTitle(error)}</strong>
      <p>{operatorMessage(error)}</p>
      {field && <p data-testid="error-field">Check the field “{field}”.</p>}
      <RawDetails lines={errorDetails(error)} />
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
