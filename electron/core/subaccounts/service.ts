import { z } from 'zod';
import { dec, Dec, fmt } from '../../../shared/money.ts';
import { OpenOrdersOfPair } from '../../../shared/api/orders.ts';
import { listOf, SpotAccount, SubAccountSpotBalance, SubAccountTransfer, Withdrawal } from '../../../shared/api/records.ts';
import { isFinalWithdrawalStatus } from '../../../shared/api/statuses.ts';
import { SUB_ACCOUNT_LOCKED_STATE, type SubAccountKey } from '../../../shared/api/subAccounts.ts';
import type { IncidentRun, IncidentView, ManagedKey, ManagedSubAccount } from '../../../shared/incident.ts';
import type { DeskApprovals } from '../approvals/deskApprovals.ts';
import type { ApiClient } from '../client/client.ts';
import { InputError } from '../errors.ts';
import { maskKey } from '../profiles/profile.ts';
import type { ActiveSession, Session } from '../session.ts';
import { IncidentRunner } from '../incident/run.ts';
import type { Approved, ApprovedRow } from '../rebalance/batch.ts';
import { incidentWrites, stepOf, type IncidentFacts } from '../incident/steps.ts';
import { keysOf, subAccountsOf } from '../writes/subAccountLookups.ts';

// Sub-accounts as the desk manages them: their lock states and keys read from the exchange, and the
// incident page's picture of one sub-account with the sequence that contains it. Every act is a write of
// the executor under the operators' approvals (DeskApprovals); this service only reads, drafts the
// incident batch, and runs approved incident batches (once each: the journal decides what is left).

export type IncidentGate = Pick<
  DeskApprovals,
  'draftBatch' | 'batchesOf' | 'batchStatus' | 'approvedBatch' | 'closeBatch' | 'frozenReason'
>;

export interface SubAccountsServiceOptions {
  session: Session;
  approvals: IncidentGate;
  /** An incident sequence moved on. */
  changed: (ref: string) => void;
  notify?: (n: { title: string; body: string; tag: string }) => void;
  log: (line: string) => void;
  now?: () => number;
}

const KEY_STATES: Record<number, string> = { 1: 'normal', 2: 'locked', 3: 'frozen' };

/** The exchange's times (Unix seconds, as a number or a string) as seconds, or null. */
function seconds(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n > 1e12 ? n / 1000 : n) : null;
}

export class SubAccountsService {
  private readonly now: () => number;
  private readonly seen = new Map<string, number>();
  private readonly runs = new Map<string, IncidentRunner>();
  private readonly held = new Map<string, string>();
  private kicking: Promise<void> = Promise.resolve();

  constructor(private readonly opts: SubAccountsServiceOptions) {
    this.now = opts.now ?? Date.now;
  }

  private active(): ActiveSession {
    return this.opts.session.active();
  }

  private deskKey(s: ActiveSession, uid: string): string | null {
    return s.profile.subKeys?.find((k) => k.uid === uid)?.key ?? null;
  }

  async managed(): Promise<ManagedSubAccount[]> {
    const s = this.active();
    return (await subAccountsOf(s.client)).map((a) => {
      const key = this.deskKey(s, a.user_id);
      return {
        user_id: a.user_id,
        login_name: a.login_name,
        remark: a.remark ?? '',
        locked: a.state === SUB_ACCOUNT_LOCKED_STATE,
        desk_key: key ? maskKey(key) : null,
      };
    });
  }

  async keys(uid: string): Promise<ManagedKey[]> {
    const s = this.active();
    const mine = this.deskKey(s, uid);
    const at = this.now();
    return (await keysOf(s.client, uid)).map((k) => this.keyView(k, mine, at));
  }

  private keyView(k: SubAccountKey, mine: string | null, at: number): ManagedKey {
    this.seen.set(k.key, at);
    return {
      name: k.name ?? null,
      key: k.key,
      key_masked: maskKey(k.key),
      perms: (k.perms ?? []).map((p) => ({ name: p.name, read_only: p.read_only ?? false })),
      ip_whitelist: k.ip_whitelist ?? [],
      created_at: seconds(k.created_at),
      last_access: seconds(k.last_access),
      state: k.state === undefined ? 'normal' : (KEY_STATES[k.state] ?? String(k.state)),
      desk_signs: k.key === mine,
      seen_by_desk_at: at,
    };
  }

  // ---- the incident page ----

  async incident(uid: string): Promise<IncidentView> {
    const s = this.active();
    const account = (await subAccountsOf(s.client)).find((a) => a.user_id === uid);
    if (!account) throw new InputError(['user_id'], `there is no sub-account ${uid} under this profile's main account`);
    const f = await this.facts(s, uid, account.state === SUB_ACCOUNT_LOCKED_STATE);
    const since = Math.floor(this.now() / 1000) - 86_400;
    const transfers = await s.client.request(
      {
        method: 'GET',
        path: '/wallet/sub_account_transfers',
        query: [
          ['sub_uid', uid],
          ['from', String(since)],
          ['limit', '1000'],
        ],
        priority: 'action',
      },
      listOf(SubAccountTransfer),
    );
    const key = this.deskKey(s, uid);
    return {
      user_id: uid,
      login_name: account.login_name,
      locked: account.state === SUB_ACCOUNT_LOCKED_STATE,
      desk_key: key ? maskKey(key) : null,
      balances: f.shown.map((b) => ({ ...b })),
      open_orders: f.orders,
      withdrawals: f.withdrawals,
      transfers: transfers.map((t) => ({
        timest: Number(t.timest),
        currency: t.currency,
        amount: t.amount,
        direction: t.direction,
        status: t.status,
      })),
      unread: f.unread,
      steps: incidentWrites(f.facts).map((w) => ({ kind: w.write.kind, summary: stepOf(w.note)!.what })),
    };
  }

  /** What the sequence is planned from: keys, open orders and balances read now. */
  private async facts(
    s: ActiveSession,
    uid: string,
    locked: boolean,
  ): Promise<{
    facts: IncidentFacts;
    shown: IncidentFacts['balances'];
    orders: IncidentView['open_orders'];
    withdrawals: IncidentView['withdrawals'];
    unread: string | null;
  }> {
    const mine = this.deskKey(s, uid);
    const keys = (await keysOf(s.client, uid)).map((k) => ({ key: k.key, desk: k.key === mine }));
    let unread: string | null = null;
    let sub: ApiClient | null = mine ? s.subKeys.client(uid) : null;
    let orders: IncidentView['open_orders'] = null;
    /** What cancelling the open orders frees, per currency: a buy's rest at its price, a sell's rest. */
    const released = new Map<string, Dec>();
    let withdrawals: IncidentView['withdrawals'] = null;
    let balances: IncidentFacts['balances'] | null = null;
    if (sub) {
      try {
        const open = await sub.request({ method: 'GET', path: '/spot/open_orders', priority: 'action' }, z.array(OpenOrdersOfPair));
        orders = open.flatMap((p) =>
          p.orders.map((o) => ({ id: o.id, currency_pair: p.currency_pair, side: o.side, amount: o.amount, price: o.price })),
        );
        for (const p of open)
          for (const o of p.orders) {
            const [base, quote] = p.currency_pair.split('_') as [string, string];
            const [c, v] = o.side === 'buy' ? [quote, dec(o.left).mul(dec(o.price))] : [base, dec(o.left)];
            released.set(c, (released.get(c) ?? new Dec(0)).plus(v));
          }
        balances = (await sub.request({ method: 'GET', path: '/spot/accounts', priority: 'action' }, listOf(SpotAccount))).map((a) => ({
          currency: a.currency,
          available: a.available,
          locked: a.locked,
        }));
        withdrawals = (await sub.request({ method: 'GET', path: '/wallet/withdrawals', priority: 'action' }, listOf(Withdrawal)))
          .filter((w) => !isFinalWithdrawalStatus(w.status))
          .map((w) => ({ id: w.id, currency: w.currency, amount: w.amount, address: w.address, status: w.status }));
      } catch (e) {
        unread = `The sub-account's own key could not read its orders, balances or withdrawals (${(e as Error).message}); its balances come from the main account's view.`;
        sub = null;
        orders = null;
        withdrawals = null;
        balances = null;
      }
    } else {
      unread =
        'This desk holds no key for the sub-account: its open orders and withdrawals cannot be read or cancelled from here (the sweep moves what is available). Create a key for it, or add one in Settings.';
    }
    if (balances === null) {
      const [row] = await s.client.request(
        { method: 'GET', path: '/wallet/sub_account_balances', query: [['sub_uid', uid]], priority: 'action' },
        listOf(SubAccountSpotBalance),
      );
      balances = Object.entries(row?.available ?? {}).map(([currency, available]) => ({
        currency,
        available: String(available),
        locked: String(row?.locking?.[currency] ?? '0'),
      }));
    }
    const openPairs = [...new Set((orders ?? []).map((o) => o.currency_pair))];
    // Only what the cancellations free is swept beside what is available: a balance held for another
    // reason stays, so that no sweep asks for more than the sub-account will hold.
    const sweepable = balances.map((b) => ({
      ...b,
      locked: fmt(Dec.min(dec(b.locked), released.get(b.currency) ?? new Dec(0))),
    }));
    return {
      facts: { uid, keys, openPairs, balances: sweepable, deskKey: sub !== null, locked },
      shown: balances,
      orders,
      withdrawals,
      unread,
    };
  }

  async draftIncident(uid: string): Promise<{ ticket: string; title: string; ref: string }> {
    const s = this.active();
    const account = (await subAccountsOf(s.client)).find((a) => a.user_id === uid);
    if (!account) throw new InputError(['user_id'], `there is no sub-account ${uid} under this profile's main account`);
    const { facts } = await this.facts(s, uid, account.state === SUB_ACCOUNT_LOCKED_STATE);
    const writes = incidentWrites(facts);
    if (!writes.length)
      throw new InputError(['user_id'], `sub-account ${uid} is locked and has no key left: there is nothing left to contain`);
    const t = await this.opts.approvals.draftBatch({
      batch: 'incident',
      title: `Contain sub-account ${uid}`,
      source: { user_id: uid },
      writes: writes.map((w) => ({ write: w.write, note: w.note })),
    });
    this.opts.changed(t.ref);
    return { ticket: t.ticket, title: t.title, ref: t.ref };
  }

  async runsOf(uid: string): Promise<IncidentRun[]> {
    const s = this.active();
    if (!s.journal || !s.writes)
      throw new InputError([], 'This profile has no usable journal, so it runs no incident sequence (see the Activity page).');
    const out: IncidentRun[] = [];
    for (const b of await this.opts.approvals.batchesOf('incident')) {
      if (b.payload.source.user_id !== uid) continue;
      const runner = this.runnerOf(s, b.payload.rows, b.ref);
      const status = b.signed ? await this.opts.approvals.batchStatus(b.ref) : null;
      const state: IncidentRun['state'] = !b.signed
        ? 'to_sign'
        : status?.state === 'rejected' || status?.state === 'expired' || status?.state === 'waiting'
          ? status.state
          : runner.finished()
            ? 'finished'
            : this.held.has(b.ref) && !this.runs.has(b.ref)
              ? 'held'
              : 'running';
      out.push({ ref: b.ref, user_id: uid, drafted_at: b.drafted_at, state, held: this.held.get(b.ref) ?? null, steps: runner.steps() });
    }
    return out.sort((a, b) => b.drafted_at - a.drafted_at);
  }

  /** A runner over `rows` (to read their progress), or over an approved batch (to send it). */
  private runnerOf(s: ActiveSession, rows: ApprovedRow[], ref: string, approved?: Approved): IncidentRunner {
    return new IncidentRunner({
      journal: s.journal!,
      sender: s.writes!,
      approved: approved ?? { rows, signatures: [], by: '', approved_at: 0 },
      held: (kind) => this.opts.approvals.frozenReason(s.id, kind),
      onProgress: () => this.opts.changed(ref),
    });
  }

  /** Starts every approved incident sequence of the active profile that has steps left and is not running. */
  kick(): Promise<void> {
    const next = this.kicking.then(() => this.kickNow());
    this.kicking = next.catch((e: unknown) => this.opts.log(`[incident] ${(e as Error).message}`));
    return this.kicking;
  }

  private async kickNow(): Promise<void> {
    const s = this.active();
    if (!s.journal || !s.writes) return;
    for (const b of await this.opts.approvals.batchesOf('incident')) {
      if (!b.signed || this.runs.has(b.ref)) continue;
      const status = await this.opts.approvals.batchStatus(b.ref);
      if (status?.state !== 'approved') continue;
      const approved = await this.opts.approvals.approvedBatch(b.ref);
      if (!approved) continue;
      const runner = this.runnerOf(s, approved.rows, b.ref, approved);
      if (runner.finished()) {
        await this.opts.approvals.closeBatch(b.ref);
        continue;
      }
      this.runs.set(b.ref, runner);
      this.held.delete(b.ref);
      this.opts.log(`[incident] ${b.ref}: running (${b.payload.title})`);
      void runner
        .run()
        .then(
          async (held) => {
            if (held !== null) this.held.set(b.ref, `Held: ${held}. It goes on when that ends.`);
            else if (runner.finished()) {
              await this.opts.approvals.closeBatch(b.ref);
              const failed = runner.steps().filter((x) => x.state !== 'done').length;
              this.opts.notify?.({
                title: `Incident sequence finished: ${b.payload.title}`,
                body: failed ? `${failed} step(s) did not complete: see the incident page.` : 'Every step is done.',
                tag: `incident:${b.ref}`,
              });
            }
          },
          (e: unknown) => {
            this.held.set(b.ref, `The sequence stopped: ${(e as Error).message}`);
            this.opts.log(`[incident] ${b.ref}: ${(e as Error).message}`);
          },
        )
        .finally(() => {
          this.runs.delete(b.ref);
          this.opts.changed(b.ref);
        });
      this.opts.changed(b.ref);
    }
  }
}
