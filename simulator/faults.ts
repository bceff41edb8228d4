import { ApiError } from './errors.ts';
import { mulberry32 } from '../shared/random.ts';

// Faults injected on purpose through the admin API, so that the desk's retry and exactly-once logic can
// be tested against a misbehaving exchange. They fire deterministically: on every Nth matching request,
// or at a rate drawn from a seeded generator, so a test that sets one knows which requests it hits.
//
// What each does to a request (docs/sandbox.md §Faults):
// - latency: the request is authenticated and counted when it arrives (its Timestamp is checked then),
//   held latency_ms, then processed and committed with the time it arrived, whether or not the client
//   is still waiting: a client that gave up finds the write at the exchange only after the hold. This is
//   the exchange that is slower than the desk's deadline.
// - timeout_after_commit: processed and committed at once, then the answer withheld for hang_ms and the
//   connection closed; drop: committed, then the connection closed without an answer.
// - error: answered with the given status and label before anything is processed.
// - skew: the server's clock moved by skew_sec for matching requests.

export const FAULT_KINDS = ['latency', 'error', 'drop', 'timeout_after_commit', 'skew'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Path below /api/v4; `*` matches any run of characters (`/wallet/*`, `*`). */
  path: string;
  /** Only this method (any when omitted). */
  method?: string;
  /** Fire on every Nth matching request (1 = every one). */
  every?: number;
  /** Or fire with this probability, from a generator seeded with `seed`. */
  rate?: number;
  seed?: number;
  /** Stop firing after this many times. */
  times?: number;
  latency_ms?: number;
  status?: number;
  label?: string;
  message?: string;
  /** How long a timeout_after_commit holds the connection before closing it without an answer. */
  hang_ms?: number;
  skew_sec?: number;
}

export interface Fault extends FaultSpec {
  id: number;
  hits: number;
  fired: number;
}

/** What the server does for one request; empty when no fault matches. */
export interface FaultPlan {
  latencyMs: number;
  error?: ApiError;
  /** After the handler has run (and committed): close the socket without an answer... */
  drop: boolean;
  /** ...or hold it this long first. */
  hangMs: number;
}

const NO_FAULT: FaultPlan = Object.freeze({ latencyMs: 0, drop: false, hangMs: 0 });

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

function bad(message: string): never {
  throw new ApiError('INVALID_PARAM_VALUE', message);
}

function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** Checks an admin request body; the error names the field a caller got wrong. */
export function parseFaultSpec(body: unknown): FaultSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) bad('body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (!FAULT_KINDS.includes(b.kind as FaultKind)) bad(`kind must be one of ${FAULT_KINDS.join(', ')}`);
  if (typeof b.path !== 'string' || (!b.path.startsWith('/') && b.path !== '*')) bad('path must start with / (or be *)');
  const spec: FaultSpec = { kind: b.kind as FaultKind, path: b.path };
  if (b.method !== undefined) {
    if (typeof b.method !== 'string' || !/^[A-Za-z]+$/.test(b.method)) bad('method must be an HTTP method');
    spec.method = b.method.toUpperCase();
  }
  if (b.every !== undefined && !isInt(b.every, 1, 1e9)) bad('every must be an integer >= 1');
  if (b.rate !== undefined && (typeof b.rate !== 'number' || !(b.rate >= 0 && b.rate <= 1))) bad('rate must be between 0 and 1');
  if (b.every !== undefined && b.rate !== undefined) bad('give every or rate, not both');
  if (b.seed !== undefined && !isInt(b.seed, 0, 2 ** 32 - 1)) bad('seed must be an integer from 0 to 2^32-1');
  if (b.times !== undefined && !isInt(b.times, 1, 1e9)) bad('times must be an integer >= 1');
  for (const k of ['every', 'rate', 'seed', 'times'] as const) if (b[k] !== undefined) spec[k] = b[k] as number;

  switch (spec.kind) {
    case 'latency':
      if (!isInt(b.latency_ms, 1, 600_000)) bad('latency_ms must be an integer from 1 to 600000');
      spec.latency_ms = b.latency_ms;
      break;
    case 'error':
      spec.status = b.status === undefined ? 500 : isInt(b.status, 400, 599) ? b.status : bad('status must be 400 to 599');
      spec.label =
        b.label === undefined
          ? 'INTERNAL'
          : typeof b.label === 'string' && /^[A-Za-z_]{1,64}$/.test(b.label)
            ? b.label
            : bad('label must be a §7 label');
      if (b.message !== undefined && typeof b.message !== 'string') bad('message must be a string');
      spec.message = b.message ?? 'fault injected by the Sandbox admin API';
      break;
    case 'timeout_after_commit':
      spec.hang_ms = b.hang_ms === undefined ? 30_000 : isInt(b.hang_ms, 1, 600_000) ? b.hang_ms : bad('hang_ms must be 1 to 600000');
      break;
    case 'skew':
      if (typeof b.skew_sec !== 'number' || !Number.isFinite(b.skew_sec) || Math.abs(b.skew_sec) > 10 * 365 * 86400)
        bad('skew_sec must be a number of seconds');
      if (spec.every !== undefined || spec.rate !== undefined || spec.times !== undefined)
        bad('a skew applies to every matching request: no every, rate or times');
      spec.skew_sec = b.skew_sec;
      break;
    case 'drop':
      break;
  }
  return spec;
}

interface Live extends Fault {
  re: RegExp;
  rand?: () => number;
}

export class Faults {
  private rules: Live[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const rule: Live = { ...spec, id: this.nextId++, hits: 0, fired: 0, re: globToRegExp(spec.path) };
    if (spec.rate !== undefined) rule.rand = mulberry32(spec.seed ?? rule.id);
    this.rules.push(rule);
    return this.view(rule);
  }

  list(): Fault[] {
    return this.rules.map((r) => this.view(r));
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  /** Seconds to add to the server's clock for this request (skew faults). */
  skewFor(method: string, path: string): number {
    let skew = 0;
    for (const r of this.rules) {
      if (r.kind === 'skew' && this.matches(r, method, path)) {
        r.hits++;
        r.fired++;
        skew += r.skew_sec!;
      }
    }
    return skew;
  }

  /** Decides, once per request, which of the other faults fire. */
  planFor(method: string, path: string): FaultPlan {
    if (this.rules.length === 0) return NO_FAULT;
    const plan: FaultPlan = { latencyMs: 0, drop: false, hangMs: 0 };
    let any = false;
    for (const r of this.rules) {
      if (r.kind === 'skew' || !this.matches(r, method, path)) continue;
      r.hits++;
      if (!this.fires(r)) continue;
      r.fired++;
      any = true;
      if (r.kind === 'latency') plan.latencyMs += r.latency_ms!;
      else if (r.kind === 'error') plan.error ??= new ApiError(r.label!, r.message!, r.status);
      else if (r.kind === 'drop') plan.drop = true;
      else if (r.kind === 'timeout_after_commit') plan.hangMs = Math.max(plan.hangMs, r.hang_ms!);
    }
    return any ? plan : NO_FAULT;
  }

  private matches(r: Live, method: string, path: string): boolean {
    return (r.method === undefined || r.method === method) && r.re.test(path);
  }

  private fires(r: Live): boolean {
    if (r.times !== undefined && r.fired >= r.times) return false;
    if (r.every !== undefined) return r.hits % r.every === 0;
    if (r.rand) return r.rand() < r.rate!;
    return true;
  }

  private view(r: Live): Fault {
    const { re: _re, rand: _rand, ...rest } = r;
    return { ...rest };
  }
}
