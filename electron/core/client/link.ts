import type { LinkState } from '../../../shared/channels/status.ts';
import type { LinkOutcome } from './client.ts';

/**
 * The link to the exchange as every request of the desk finds it: a page's read, a background poll, a
 * write, a clock sync. The window showed only what its own calls of three channels found, and said
 * "Waiting for the Sandbox…" for as long as it sent none of them while the core's polls were answered.
 */
export class LinkMonitor {
  private state: LinkState = { last_answer_at: null, last_failure: null };

  constructor(
    private readonly changed: (state: LinkState) => void,
    private readonly now: () => number = Date.now,
  ) {}

  note(outcome: LinkOutcome): void {
    const at = this.now();
    this.state = outcome.answered
      ? { last_answer_at: at, last_failure: null }
      : { ...this.state, last_failure: { at, title: outcome.timedOut ? 'No answer in time' : 'No connection' } };
    this.changed(this.state);
  }

  view(): LinkState {
    return this.state;
  }
}
