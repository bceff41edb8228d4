import { amountProblem } from '../../shared/money.ts';
import { ApiError } from '../errors.ts';
import type { Caller } from '../auth.ts';

// Parameter rules shared by the endpoints (§8.1, §8.5): a missing required parameter is
// MISSING_REQUIRED_PARAM, a value that cannot be used is INVALID_PARAM_VALUE.

export type Query = ReadonlyMap<string, string>;

const DAY = 86400;
export const MAX_RANGE_SEC = 30 * DAY;
export const DEFAULT_RANGE_SEC = 7 * DAY;

export function optional(q: Query, name: string): string | undefined {
  const v = q.get(name);
  return v === undefined || v === '' ? undefined : v;
}

export function required(q: Query, name: string): string {
  const v = optional(q, name);
  if (v === undefined) throw new ApiError('MISSING_REQUIRED_PARAM', `${name} is required`);
  return v;
}

/** An integer query parameter within [min, max]; `def` when absent. */
export function intParam(q: Query, name: string, def: number, min: number, max: number): number {
  const v = optional(q, name);
  if (v === undefined) return def;
  if (!/^\d{1,15}$/.test(v)) throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a non-negative integer`);
  const n = Number(v);
  if (n < min || n > max) throw new ApiError('INVALID_PARAM_VALUE', `${name} must be between ${min} and ${max}`);
  return n;
}

export interface Page {
  limit: number;
  offset: number;
}

/** limit-offset pagination (§8.1): limit 1..max (default def), offset from 0. */
export function limitOffset(q: Query, def = 100, max = 1000): Page {
  return { limit: intParam(q, 'limit', def, 1, max), offset: intParam(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER) };
}

/** page-limit pagination (§8.1): page from 1. */
export function pageLimit(q: Query, def: number, max: number): Page {
  const limit = intParam(q, 'limit', def, 1, max);
  const page = intParam(q, 'page', 1, 1, 1_000_000);
  return { limit, offset: (page - 1) * limit };
}

function timeParam(q: Query, name: string): number | undefined {
  const v = optional(q, name);
  if (v === undefined) return undefined;
  // §1: times may carry decimals; a range is counted in whole seconds.
  if (!/^\d{1,12}(\.\d+)?$/.test(v)) throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a Unix time in seconds`);
  return Math.floor(Number(v));
}

/**
 * from/to of a time-range query, as §4.1 and §8.1 word the defaults: `to` defaults to now and `from` to
 * 7 days before now, whether or not `to` is sent. A `to` older than that with no `from` is an empty
 * range (an empty list), not a refusal: the client never sent the `from` it would be refused for. A
 * `from` sent after `to` is refused. With maxSec set, a wider range is refused.
 */
export function timeRange(q: Query, nowSec: number, maxSec?: number): { from: number; to: number } {
  const to = timeParam(q, 'to') ?? Math.floor(nowSec);
  const sentFrom = timeParam(q, 'from');
  const from = sentFrom ?? Math.floor(nowSec) - DEFAULT_RANGE_SEC;
  if (sentFrom !== undefined && from > to) throw new ApiError('INVALID_PARAM_VALUE', 'from must not be after to');
  if (maxSec !== undefined && to - from > maxSec)
    throw new ApiError('INVALID_PARAM_VALUE', `the time range may span at most ${maxSec / DAY} days`);
  return { from, to };
}

/** The JSON body as an object; a POST without one names its first required field. */
export function bodyObject(body: unknown, firstRequired: string): Record<string, unknown> {
  if (body === undefined || body === null) throw new ApiError('MISSING_REQUIRED_PARAM', `request body with ${firstRequired} is required`);
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('INVALID_REQUEST_BODY', 'request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function bodyString(b: Record<string, unknown>, name: string, isRequired: true): string;
export function bodyString(b: Record<string, unknown>, name: string, isRequired: false): string | undefined;
export function bodyString(b: Record<string, unknown>, name: string, isRequired: boolean): string | undefined {
  const v = b[name];
  if (v === undefined || v === null || v === '') {
    if (isRequired) throw new ApiError('MISSING_REQUIRED_PARAM', `${name} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ApiError('INVALID_PARAM_VALUE', `${name} must be a string`);
  return v;
}

/** §8.5: a string amount, above 0, at most 8 decimals. Numbers are refused: amounts travel as strings (§1). */
export function bodyAmount(b: Record<string, unknown>, name = 'amount'): string {
  const v = bodyString(b, name, true);
  const problem = amountProblem(v);
  if (problem) throw new ApiError('INVALID_PARAM_VALUE', `${name} ${problem}`);
  return v.includes('.') ? v.replace(/\.?0+$/, '') : v;
}

/** Currencies are upper-case names; lower-case input is accepted and normalised. */
export function currencyName(v: string): string {
  const c = v.toUpperCase();
  if (!/^[A-Z0-9]{1,20}$/.test(c)) throw new ApiError('INVALID_CURRENCY', `not a currency name: ${v}`);
  return c;
}

/** Refuses sub-account keys on endpoints that belong to the main account. */
export function mainOnly(caller: Caller, what: string): void {
  if (caller.isSub) throw new ApiError('FORBIDDEN', `sub-account keys cannot call ${what}`);
}

export function page<T>(rows: T[], p: Page): T[] {
  return rows.slice(p.offset, p.offset + p.limit);
}
