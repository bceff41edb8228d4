import type { IntentView } from '../journal/intents.ts';
import type { Journal } from '../journal/journal.ts';
import type { Decision } from '../../../shared/api/policy.ts';
import type { RecordType } from '../journal/records.ts';
import type { WriteClient } from './lookups.ts';

// What a WriteExecutor is built with and what it tells its listeners (executor.ts).

export interface ExecutorOptions {
  journal: Journal;
  client: WriteClient;
  /**
   * The client that signs with a sub-account's own key (the session's sub-key clients); throws when the
   * profile holds no key for it. Without it, kinds signed by a sub-account's key are never sent.
   */
  subClient?: (uid: string) => WriteClient;
  /** How long after an attempt's deadline it may still land (a setting; doubt.ts says why 90 s by default). */
  settleMs?: number;
  /** How long an attempt may take before the client aborts it: its deadline (the client's timeout). */
  requestTimeoutMs?: number;
  /** Pause between lookups, and before a retry after a 429. */
  lookupIntervalMs?: number;
  now?: () => number;
  newId?: () => string;
  /**
   * Why the desk cannot sign right now (the vault is locked), or null. While there is a reason, intents
   * are not driven: they wait, as journaled, for resume() (which the core calls on unlock).
   */
  blocked?: (v: IntentView) => string | null;
  /**
   * Why the operators' approvals do not carry this write now (approvals/sendGate.ts), or null. Asked
   * before every attempt leaves, with the deadline the attempt will carry; a refused write is closed unsent,
   * and a throw leaves it waiting.
   */
  gate?: (v: IntentView, deadline: number) => Promise<string | null>;
  /**
   * Where a created sub-account key's secret goes, straight from the exchange's answer: the vault, for
   * that sub-account's signing. The secret is never journaled, logged or answered to the window; without
   * a sink (or when it fails) the key is reported as made without a usable secret.
   */
  keySink?: (uid: string, key: string, secret: Buffer) => void | Promise<void>;
  /** A sub-account key the exchange no longer holds (its removal landed): the desk stops signing with it. */
  keyGone?: (uid: string, key: string) => void;
}

export interface WriteEvent {
  record: RecordType;
  intent: IntentView;
}

/** What an approved request carries beside its wire body: a batch row's note, the sub-account whose key signs it. */
export interface IntentExtra {
  note?: string;
  signer?: string;
  /** What decided its approval (rule, quorum, policy), journaled with it: the write's own record says so. */
  decided?: Decision;
  /**
   * When governance approved it (its quorum record's time). Not journaled: it decides whether the first send
   * needs a lookup. Absent, the approval counts as older than this run, so the lookup is never skipped.
   */
  approved_at?: number;
}
