import { CHANNEL_NAMES, type DeskApi, type DeskErrorBody } from '../../../shared/ipc.ts';

declare global {
  interface Window {
    /** The Electron preload's desk; absent in a browser, where the web desk is built instead. */
    desk?: DeskApi;
  }
}

/** An error answered by the core (or by the host when the core is unreachable). */
export class DeskError extends Error {
  constructor(readonly body: DeskErrorBody) {
    super(body.message);
    this.name = 'DeskError';
  }
}

const CHANNEL_PREFIX = new RegExp(`^(?:${CHANNEL_NAMES.join('|')}): (?:[\\w.]+: )?`);
const SHAPE = /^The exchange's answer to \w+ did not have the expected shape/;

function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

/**
 * The sentence an operator reads for an error. The core's refusals of a request name the channel and the
 * field ("vaultSetPassphrase: next: …") for its log; the window shows the sentence only, and the field
 * it belongs to is shown by the form beside its input.
 */
export function operatorMessage(error: unknown): string {
  if (error instanceof DeskError) {
    const m = error.body.message;
    if (SHAPE.test(m))
      return "The exchange answered with something the desk does not understand; nothing was changed. Try again, and see the desk's log if it persists.";
    return sentence(m.replace(CHANNEL_PREFIX, ''));
  }
  if (error instanceof Error) return sentence(error.message);
  return sentence(String(error));
}

/** The short title of an error panel: the exchange's label where there is one. */
export function errorTitle(error: unknown): string {
  if (!(error instanceof DeskError)) return 'Error';
  const b = error.body;
  if (b.label) return b.label;
  if (b.kind === 'network') return 'No connection';
  if (b.kind === 'locked') return 'Locked';
  if (b.kind === 'invalid_request') return 'Not accepted';
  return 'Error';
}
