import type { z } from 'zod';
import { labelSentence } from '../../shared/api/labels.ts';
import { AUDITOR_NO_KEY } from '../../shared/ipc.ts';

// The core's error classes, one module: what the exchange answered, what the network did, what the
// operator's input or the desk's state refuses. core.ts turns each into the renderer's error kind.
// Errors carry labels, HTTP statuses, addresses and field names only: never a key, a secret, a
// signature or a body. (The vault's own VaultError, with its codes, stays in vault/errors.ts.)
// This module imports nothing of electron/core (.dependency-cruiser.cjs errors-import-no-core): every
// layer may throw these, so they sit below all of them.

/** The exchange answered with a §7 error body. */
export class ExchangeError extends Error {
  /**
   * True when the exchange may have applied the request anyway (a 5xx: the server faulted somewhere
   * between receiving and answering). A 4xx, 429 included, is a refusal: nothing was applied.
   */
  readonly ambiguous: boolean;

  constructor(
    readonly status: number,
    readonly label: string,
    readonly serverMessage: string,
    /** Local epoch ms before which the bucket should not be tried again (429 only). */
    readonly retryAt?: number,
  ) {
    super(labelSentence(label, serverMessage));
    this.name = 'ExchangeError';
    this.ambiguous = status >= 500;
  }
}

/** Connection failures that prove the request never reached the server. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL', 'UND_ERR_INVALID_ARG']);

/** The system's code of a connection failure (ENOTFOUND, ECONNREFUSED…), found along the error's causes. */
export function causeCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** No answer, or an answer that is not the API's. */
export class NetworkError extends Error {
  /**
   * True when the request may have been applied (a timeout, a dropped connection, a garbled answer).
   * False only when the failure proves that nothing left this machine (connection refused, no such host).
   */
  readonly ambiguous: boolean;
  /** HTTP status when the server answered without an API error body; undefined when it did not answer. */
  readonly status?: number;
  readonly timedOut: boolean;
  /** The exchange's origin (scheme, host, port) when known, for the operator's sentence. */
  readonly origin?: string;

  constructor(message: string, cause?: unknown, opts: { status?: number; timedOut?: boolean; origin?: string } = {}) {
    super(message, { cause });
    this.name = 'NetworkError';
    this.status = opts.status;
    this.timedOut = opts.timedOut ?? false;
    this.origin = opts.origin;
    const code = causeCode(cause);
    this.ambiguous = !(code !== undefined && NOT_SENT_CODES.has(code) && !this.timedOut);
  }
}

/**
 * A 200 whose body is not the record the endpoint promises (a field the desk uses is missing or of the
 * wrong type). It is a NetworkError because the answer is not the API's: for a write it may still mean
 * the request was applied, so it counts as ambiguous, never as a refusal.
 */
export class AnswerShapeError extends NetworkError {
  constructor(
    /** "GET /wallet/withdrawals" */
    readonly endpoint: string,
    /** The field as a path into the answer ("[0].amount"), or "answer" for the whole body. */
    readonly field: string,
    readonly problem: string,
    origin: string,
  ) {
    super(`The exchange's answer to ${endpoint} (${origin}) did not have the expected shape: ${field} ${problem}.`, undefined, {
      status: 200,
      origin,
    });
    this.name = 'AnswerShapeError';
  }

  static from(endpoint: string, origin: string, data: unknown, issue: z.core.$ZodIssue): AnswerShapeError {
    const path = issue.path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '');
    let at: unknown = data;
    for (const p of issue.path) at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[p] : undefined;
    const problem = at === undefined ? 'is missing' : `is not valid (${issue.message})`;
    return new AnswerShapeError(endpoint, path || 'answer', problem, origin);
  }
}

/** The operator's input is refused; `path` points into the request, for forms to highlight. */
export class InputError extends Error {
  constructor(
    readonly path: Array<string | number>,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * The active profile is an auditor profile: it holds no exchange key, so nothing is asked of the exchange
 * and nothing is written, drafted, signed or sent from it (refused here in the core, whatever the window asks).
 */
export class AuditorProfileError extends Error {
  constructor(what = 'the desk asks nothing of the exchange for it, and it writes, drafts, signs and sends nothing') {
    super(`${AUDITOR_NO_KEY}: ${what}. Choose a profile with a key on the Settings page for that.`);
    this.name = 'AuditorProfileError';
  }
}

export class NoProfileError extends Error {
  constructor() {
    super('No profile is selected. Add or pick one on the Settings page.');
    this.name = 'NoProfileError';
  }
}

export class LockedError extends Error {
  constructor(message = 'The desk is locked. Unlock it with your passphrase; nothing is signed while it is locked.') {
    super(message);
    this.name = 'LockedError';
  }
}

/** A write still queued when its deadline passed: it never left, so the exchange cannot hold it. */
export class DeadlinePassedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlinePassedError';
  }
}

/**
 * A write the desk held back as it left the queue (a freeze signed while it waited for its rate window):
 * it never left, so the exchange cannot hold it, and it waits for what held it to be lifted.
 */
export class HeldBackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeldBackError';
  }
}

/** What journal verification found wrong (journal/verify.ts reports it; a damaged profile's writes stop on it). */
export interface JournalDamage {
  /** What is wrong, in words an operator can act on. */
  reason: string;
  /** The first entry (line number) that failed, when one did. */
  entry: number | null;
  /** Entries the head says exist and the file no longer holds. */
  missing: number;
}

export class JournalDamagedWritesError extends Error {
  constructor(readonly damage: JournalDamage) {
    super(
      `Writes on this profile are stopped: its journal failed verification: ${damage.reason} Nothing will be sent. Open the Activity page to archive the damaged journal and start a new one.`,
    );
    this.name = 'JournalDamagedWritesError';
  }
}
