import { labelSentence } from '../../../shared/api/labels.ts';

// Errors carry labels, HTTP statuses and addresses only: never a key, a secret, a signature or a body.

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

function causeCode(e: unknown): string | undefined {
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

  constructor(message: string, cause?: unknown, opts: { status?: number; timedOut?: boolean } = {}) {
    super(message, { cause });
    this.name = 'NetworkError';
    this.status = opts.status;
    this.timedOut = opts.timedOut ?? false;
    const code = causeCode(cause);
    this.ambiguous = !(code !== undefined && NOT_SENT_CODES.has(code) && !this.timedOut);
  }
}
