import { DeskError } from '../desk/desk.ts';

export function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const body = error instanceof DeskError ? error.body : null;
  return (
    <div className="error-panel" role="alert">
      <strong>{body?.label ?? (body?.kind === 'network' ? 'No connection' : 'Error')}</strong>
      <p>{body?.message ?? (error as Error)?.message ?? String(error)}</p>
      {onRetry && <button type="button" onClick={onRetry}>Try again</button>}
    </div>
  );
}
