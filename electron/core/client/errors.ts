import { labelSentence } from '../../../shared/api/labels.ts';

/** The exchange answered with a §7 error body. */
export class ExchangeError extends Error {
  constructor(
    readonly status: number,
    readonly label: string,
    readonly serverMessage: string,
  ) {
    super(labelSentence(label, serverMessage));
    this.name = 'ExchangeError';
  }
}

/** No answer, or an answer that is not the API's: the request may or may not have been applied. */
export class NetworkError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'NetworkError';
  }
}
