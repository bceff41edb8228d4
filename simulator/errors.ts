import { AUTH_FAILURE_LABELS } from '../shared/api/labels.ts';

// Every failure is JSON {label, message} with a §7 label. The HTTP status per label is the Sandbox's
// choice where §7 is silent (docs/sandbox.md §Label → HTTP status): the §5.9 labels 401, not-found cases 404, the rate limit 429,
// server faults 5xx, every other label 400 (METHOD_NOT_ALLOWED included). See simulator/README.md.
const STATUS_BY_LABEL: Record<string, number> = {
  ...Object.fromEntries(AUTH_FAILURE_LABELS.map((l) => [l, 401])),
  NOT_FOUND: 404,
  SUB_ACCOUNT_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  CONTRACT_NOT_FOUND: 404,
  POSITION_NOT_FOUND: 404,
  LOAN_NOT_FOUND: 404,
  LOAN_RECORD_NOT_FOUND: 404,
  ORDER_NOT_EXIST: 404,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  SERVER_ERROR: 500,
  SERVER_TIMEOUT: 504,
  TOO_BUSY: 503,
};

export function statusForLabel(label: string): number {
  return STATUS_BY_LABEL[label] ?? 400;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly label: string,
    message: string,
    status?: number,
  ) {
    super(message);
    this.status = status ?? statusForLabel(label);
  }
}
