import type { DeskApi, DeskErrorBody } from '../../../shared/ipc.ts';
import { asSentence } from '../../../shared/sentence.ts';

declare global {
  interface Window {
    /** The Electron preload's desk; absent in a browser, where the web desk is built instead. */
    desk?: DeskApi;
  }
}

/** An error answered by the core (or by the host when the core is unreachable), kept as the structure it came in. */
export class DeskError extends Error {
  constructor(readonly body: DeskErrorBody) {
    super(body.message);
    this.name = 'DeskError';
  }

  /** Where inside the request the core's refusal points ([] when it names no field). */
  get path(): ReadonlyArray<string | number> {
    return this.body.path ?? [];
  }
}

/**
 * The sentence an operator reads for an error. The core sends the sentence apart from the channel and
 * the field it concerns, so it is shown as it came; the field is shown by the form beside its input.
 */
export function operatorMessage(error: unknown): string {
  if (error instanceof DeskError) return asSentence(error.body.message);
  if (error instanceof Error) return asSentence(error.message);
  return asSentence(String(error));
}

/** The short title of an error panel, in words (the exchange's label is kept for the details). */
export function errorTitle(error: unknown): string {
  if (!(error instanceof DeskError)) return 'Error';
  const b = error.body;
  if (b.kind === 'exchange') return 'Refused by the exchange';
  if (b.kind === 'network') return 'No connection';
  if (b.kind === 'locked') return 'Locked';
  if (b.kind === 'invalid_request') return 'Not accepted';
  return 'Error';
}

/** The field a refusal points to, in words ("withdraw_order_id" → "withdraw order id"), or null when it names none. */
export function errorField(error: unknown): string | null {
  if (!(error instanceof DeskError)) return null;
  const name = [...error.path].reverse().find((p): p is string => typeof p === 'string');
  return name ? name.replace(/_/g, ' ') : null;
}

/** The raw text behind an error (label, the exchange's or the connection's own message, the channel): for "Details" only. */
export function errorDetails(error: unknown): string[] {
  if (!(error instanceof DeskError)) return [];
  const b = error.body;
  return [...(b.label ? [`Label: ${b.label}`] : []), ...(b.detail ? [b.detail] : []), ...(b.channel ? [`Channel: ${b.channel}`] : [])];
}
