import type { IntentView } from '../journal/intents.ts';
import type { ExecutorOptions } from './executorOptions.ts';

// A created sub-account key's secret comes once, in the exchange's answer: it goes straight to the vault
// and is wiped here; it is never journaled, logged or answered to the window (executor.ts).

/** Takes the secret out of a key creation's answer (the answer object keeps no copy). */
export function takeSecret(answer: Record<string, unknown> | undefined): Buffer | null {
  if (!answer || typeof answer.secret !== 'string') return null;
  const secret = Buffer.from(answer.secret, 'utf8');
  delete answer.secret;
  return secret;
}

/**
 * Puts a new key's secret into the vault for its sub-account, then wipes this copy. Answers why it could
 * not be kept (the key then exists at the exchange without a secret the desk holds), or null.
 */
export async function keepSecret(
  sink: ExecutorOptions['keySink'] | null,
  v: IntentView,
  answer: Record<string, unknown> | undefined,
  secret: Buffer,
): Promise<string | null> {
  try {
    if (!sink) return 'this desk keeps no sub-account keys';
    if (typeof answer?.key !== 'string') return 'the answer named no key';
    await sink(String(v.body.user_id), answer.key, secret);
    return null;
  } catch (e) {
    // The sink's own words, never the answer: its message holds no secret.
    return (e as Error).message;
  } finally {
    secret.fill(0);
  }
}

/** The operator's instruction when a key exists at the exchange without a secret the desk holds. */
export function secretLostReason(v: IntentView, why: string): string {
  return `The exchange made key ${v.client_id} for sub-account ${String(v.body.user_id)}, but the desk holds no secret for it (${why}). Disable that key, then create another.`;
}
