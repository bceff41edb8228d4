// Every failure is JSON {label, message} with a §7 label. The HTTP status per label is the Sandbox's
// choice where §7 is silent: §5.9 auth labels 401, not-found cases 404, rate limit 429,
// server faults 5xx, everything else 400 (see simulator/README.md).
const STATUS_BY_LABEL: Record<string, number> = {
  INVALID_KEY: 401, IP_FORBIDDEN: 401, READ_ONLY: 401, INVALID_SIGNATURE: 401, MISSING_REQUIRED_HEADER: 401,
  REQUEST_EXPIRED: 401, ACCOUNT_LOCKED: 401, FORBIDDEN: 401, INVALID_CREDENTIALS: 401,
  NOT_FOUND: 404, SUB_ACCOUNT_NOT_FOUND: 404, ORDER_NOT_FOUND: 404, USER_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500, SERVER_ERROR: 500, TOO_BUSY: 503,
};

export function statusForLabel(label: string): number {
  return STATUS_BY_LABEL[label] ?? 400;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(readonly label: string, message: string, status?: number) {
    super(message);
    this.status = status ?? statusForLabel(label);
  }
}
