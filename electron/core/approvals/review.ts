import { z } from 'zod';
import type { BatchPayload, BatchReview, BatchSpec } from '../../../shared/api/batch.ts';
import type { Policy, Verdict, WriteFacts } from '../../../shared/api/policy.ts';
import { listOf, SavedAddress } from '../../../shared/api/records.ts';
import type { WriteKind, WriteRequest } from '../../../shared/api/writes.ts';
import type { ProfileSummary, Review } from '../../../shared/ipc.ts';
import { dec, Dec } from '../../../shared/money.ts';
import { InputError } from '../errors.ts';
import { classifyDestination } from '../policy/destinations.ts';
import { evaluate, OUTFLOW_KINDS, outflow24h } from '../policy/engine.ts';
import type { ActiveSession } from '../session.ts';
import { buildBody, KINDS, signerOf } from '../writes/inputs.ts';
import type { AddressBook } from './addressBook.ts';
import { strictest, totalsOf } from '../policy/batchVerdict.ts';
import type { Proposal, RequestPayload } from '../governance/state.ts';
import type { Approvals } from './service.ts';
import { isManagementKind } from '../../../shared/api/subAccounts.ts';
import { managementVerdict, NO_MONEY } from '../policy/managementVerdict.ts';

// The policy's verdict on a write (or on every row of a batch) with what the desk knows around it: the
// destination's lists, a USDT valuation, the 24-hour outflow (journaled, approved, and waiting for
// approvals), an order's notional; and whether the key that would sign it may at all.

/** The Sandbox's spot ticker (not in the spec's sections): `last` for the USDT valuation, `highest_bid` for a market sell. */
const Tickers = z.array(z.looseObject({ last: z.string().optional(), highest_bid: z.string().optional() }));

/** Spot writes: judged by the spot permission and by an order's notional. */
const SPOT_KINDS: ReadonlySet<WriteKind> = new Set(['spot_order', 'spot_cancel', 'spot_cancel_all']);

/** What one review (a write, or every row of a batch) reads once: saved addresses, prices, the journal's outflow. */
export interface ReviewContext {
  approvals: Approvals;
  session: ActiveSession;
  saved: Map<string, Promise<z.infer<typeof SavedAddress>[]>>;
  prices: Map<string, Promise<string | null>>;
  velocity: Map<string, Promise<string>>;
}

export interface ReviewerOptions {
  /** The active profile's address book: its own operators sign it, its own cooling-off applies. */
  book: () => AddressBook;
  now: () => number;
  /** The stored profiles as they stand now (permissions the exchange corrected included). */
  profiles: () => ProfileSummary[];
}

/** A review as the window sees it, with the facts the draft signs (the window's schema leaves them out). */
export type JudgedReview = z.input<typeof Review> & { facts: WriteFacts };

/**
 * The id a write gets when it is drafted, not known at review: a stand-in of an id's length, so that a
 * field made from the id's tail (an order's text, `t-label.` and the last 16 characters) reads whole.
 */
const UNSET_ID = 'UNSETUNTILDRAFTED0000000000';
const UNSET_WORDS = '(set when drafted)';

function withUnsetId(body: Record<string, string | number>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v !== 'string') out[k] = v;
    else if (v.endsWith(UNSET_ID)) out[k] = `${v.slice(0, -UNSET_ID.length)}${UNSET_WORDS}`;
    else if (v.endsWith(UNSET_ID.slice(-16))) out[k] = `${v.slice(0, -16)}${UNSET_WORDS}`;
    else out[k] = v;
  }
  return out;
}

export class Reviewer {
  constructor(private readonly opts: ReviewerOptions) {}

  /**
   * Whether the desk may draft on the active profile at all, said before a form is filled. A spot write
   * is judged by the key that signs it: the main key, or `signer`'s own.
   */
  blockedReason(session: ActiveSession, kind: WriteKind = 'withdrawal', signer: string | null = null): string | null {
    if (isManagementKind(kind))
      return session.writes ? null : 'This profile has no usable journal, so it sends no writes (see the Activity page).';
    if (SPOT_KINDS.has(kind)) {
      return (
        this.spotRefusal(session, signer) ??
        (session.writes ? null : 'This profile has no usable journal, so it sends no writes (see the Activity page).')
      );
    }
    if (kind === 'small_balance_convert') {
      // A conversion stays in the account: it needs the wallet group (§5.5), not the withdrawal one.
      const wallet = session.profile.permissions?.wallet;
      if (wallet && wallet !== 'write')
        return `This profile's key cannot write to the wallet (wallet permission: ${wallet}); no small balance can be converted with it.`;
      return session.writes ? null : 'This profile has no usable journal, so it sends no writes (see the Activity page).';
    }
    if (session.profile.permissions?.withdraw && session.profile.permissions.withdraw !== 'write') {
      return `This profile's key cannot withdraw (withdrawal permission: ${session.profile.permissions.withdraw}); nothing can be sent from it.`;
    }
    if (!session.writes) return 'This profile has no usable journal, so it sends no writes (see the Activity page).';
    return null;
  }

  /**
   * Why the key that would sign a spot write may not trade, from what the profile store holds now: the
   * permissions declared, as corrected by the exchange's READ_ONLY and FORBIDDEN answers (a sub-account
   * key's are learned for that key alone, and Settings shows them).
   */
  private spotRefusal(session: ActiveSession, signer: string | null): string | null {
    const summary = this.opts.profiles().find((p) => p.id === session.id);
    if (signer === null) {
      const spot = summary?.permissions.spot ?? session.profile.permissions?.spot;
      return spot && spot !== 'write' ? `This profile's key cannot trade (spot permission: ${spot}); no order can be sent from it.` : null;
    }
    const key = summary?.sub_keys.find((k) => k.uid === signer);
    const spot = key?.permissions?.spot;
    if (!key || !spot || spot === 'write') return null;
    return `Sub-account ${signer}'s key ${key.key_masked} cannot trade (spot permission: ${spot}, as the exchange answered it); no order or cancellation can be sent with it. Settings shows what each key may do.`;
  }

  context(approvals: Approvals, session: ActiveSession, writes: ReadonlyArray<z.output<typeof WriteRequest>>): ReviewContext {
    for (const w of writes) {
      let signer: string | null = null;
      try {
        signer = signerOf(w);
      } catch {
        // Bad input: reviewOne names the problem.
      }
      const blocked = this.blockedReason(session, w.kind, signer);
      if (blocked) throw new InputError([], blocked);
    }
    return { approvals, session, saved: new Map(), prices: new Map(), velocity: new Map() };
  }

  /** One write's verdict; `before` is what earlier rows of the same batch take out in its currency. */
  async one(
    ctx: ReviewContext,
    write: z.output<typeof WriteRequest>,
    id: string | null,
    before: string,
    path: (string | number)[] = ['write'],
  ): Promise<JudgedReview> {
    const { approvals, session } = ctx;
    let body: Record<string, string | number>;
    let signer: string | null;
    try {
      body = buildBody(write, KINDS[write.kind].idField ? (id ?? UNSET_ID) : null);
      if (id === null) body = withUnsetId(body);
      signer = signerOf(write);
    } catch (e) {
      throw new InputError(path, (e as Error).message);
    }
    if (signer !== null && !session.subKeys.has(signer)) {
      throw new InputError(
        ['write', 'input', KINDS[write.kind].signer === 'sub' ? 'sub_account' : 'sub_uid'],
        `This profile holds no key for sub-account ${signer}, which signs this ${KINDS[write.kind].what}. Add the key to the profile in Settings.`,
      );
    }
    if (isManagementKind(write.kind)) {
      await approvals.load();
      const verdict = managementVerdict(write.kind, approvals.changeQuorum());
      return { kind: write.kind, body, verdict, destination_note: null, facts: NO_MONEY };
    }
    const { policy } = await approvals.policyStatus(session.id);
    if (SPOT_KINDS.has(write.kind))
      return { ...(await this.spot(session, approvals, write.kind, body, policy)), ...(signer !== null ? { signer } : {}) };
    const currency = String(body.currency);
    let destination: 'verified_saved' | 'address_book' | 'unknown' | null = null;
    let note: string | null = null;
    if (write.kind === 'withdrawal') {
      const key = `${currency}\u0000${String(body.chain)}`;
      let saved = ctx.saved.get(key);
      if (!saved) {
        saved = session.client.request(
          {
            method: 'GET',
            path: '/wallet/saved_address',
            query: [
              ['currency', currency],
              ['chain', String(body.chain)],
            ],
            priority: 'action',
          },
          listOf(SavedAddress),
        );
        ctx.saved.set(key, saved);
      }
      const c = classifyDestination(
        { currency, chain: String(body.chain), address: String(body.address), ...(body.memo ? { memo: String(body.memo) } : {}) },
        await saved,
        await this.opts.book().list(),
        this.opts.now(),
        this.opts.book().coolingOffMs,
      );
      destination = c.destination;
      note = c.why;
    } else if (write.kind === 'uid_transfer') {
      destination = 'unknown';
      note = `user ${String(body.receive_uid)}: another account, on no list`;
    }
    let price = ctx.prices.get(currency);
    if (!price) ctx.prices.set(currency, (price = this.usdtPrice(session, currency)));
    let velocity = ctx.velocity.get(currency);
    if (!velocity) ctx.velocity.set(currency, (velocity = this.velocity(approvals, session, currency)));
    const facts: WriteFacts = { currency, amount: String(body.amount), destination, usdt_price: await price };
    const verdict: Verdict = evaluate(policy, {
      kind: write.kind,
      ...facts,
      velocity_24h: dec(await velocity)
        .plus(dec(before))
        .toFixed(),
    });
    return { kind: write.kind, body, ...(signer !== null ? { signer } : {}), verdict, destination_note: note, facts };
  }

  /**
   * A spot write is judged by its notional in the quote currency (limit: amount × price; market buy: the
   * quote amount; market sell: amount × the best bid, or the last price on an empty book), so that
   * `usdt_at_least` holds orders above a value. A cancellation is worth 0: it moves no money.
   */
  private async spot(
    session: ActiveSession,
    approvals: Approvals,
    kind: WriteKind,
    body: Record<string, string | number>,
    policy: Policy,
  ): Promise<JudgedReview> {
    const pair = String(body.currency_pair);
    const quote = pair.slice(pair.indexOf('_') + 1);
    let notional = '0';
    let note: string | null = null;
    if (kind === 'spot_order') {
      const amount = dec(String(body.amount));
      if (body.type === 'limit') notional = amount.mul(dec(String(body.price))).toFixed();
      else if (body.side === 'buy') notional = amount.toFixed();
      else {
        const t = await this.ticker(session, pair);
        const px = t?.highest_bid || t?.last;
        if (px) notional = amount.mul(dec(px)).toFixed();
        note = px
          ? `a market sell valued at ${t?.highest_bid ? 'the best bid' : 'the last price'}, ${px} ${quote}`
          : 'no price for this pair: the order is valued at 0';
      }
      note = `notional ${notional} ${quote}${note ? ` (${note})` : ''}`;
    }
    const facts: WriteFacts = { currency: quote, amount: notional, destination: null, usdt_price: await this.usdtPrice(session, quote) };
    const verdict: Verdict = evaluate(policy, { kind, ...facts, velocity_24h: await this.velocity(approvals, session, quote) });
    return { kind, body, verdict, destination_note: note, facts };
  }

  private async ticker(session: ActiveSession, pair: string): Promise<{ last?: string; highest_bid?: string } | undefined> {
    try {
      return (
        await session.client.request(
          { method: 'GET', path: '/spot/tickers', query: [['currency_pair', pair]], priority: 'action' },
          Tickers,
        )
      )[0];
    } catch {
      return undefined;
    }
  }

  /**
   * The currency's 24-hour outflow: what the journal holds (sent, in flight, approved) plus requests
   * drafted and not yet handed to it, so that a batch waiting for approvals cannot slip under a velocity rule.
   */
  private async velocity(approvals: Approvals, session: ActiveSession, currency: string): Promise<string> {
    const now = this.opts.now();
    const journaled = outflow24h(session.journal?.intents() ?? [], currency, now);
    const inJournal = new Set((session.journal?.intents() ?? []).map((v) => v.id));
    const waiting = [...(await approvals.load()).proposals.values()]
      .filter((p) => (p.what === 'request' || p.what === 'batch') && p.profile === session.id && !p.rejected && !p.dispatched)
      .flatMap((p): { p: Proposal; req: { kind: string; body: RequestPayload['body'] } }[] =>
        p.what === 'batch'
          ? (JSON.parse(p.payload) as BatchPayload).rows.filter((r) => !inJournal.has(r.ref)).map((r) => ({ p, req: r }))
          : inJournal.has(p.ref)
            ? []
            : [{ p, req: JSON.parse(p.payload) as RequestPayload }],
      )
      .filter(({ req }) => OUTFLOW_KINDS.has(req.kind))
      .map(({ p, req }) => ({ kind: req.kind as 'withdrawal', state: 'approved', created_at: p.drafted_at, body: req.body }));
    return dec(journaled)
      .plus(dec(outflow24h(waiting, currency, now)))
      .toFixed();
  }

  /**
   * The facts of withdrawals the exchange lists (a replay of a policy): each destination classified as a
   * draft's would be now (verified saved addresses, read once per currency and chain, and the address book),
   * each currency valued once.
   */
  async withdrawalFacts(session: ActiveSession, rows: ReadonlyArray<Record<string, string>>): Promise<WriteFacts[]> {
    const saved = new Map<string, Promise<z.infer<typeof SavedAddress>[]>>();
    const prices = new Map<string, Promise<string | null>>();
    const book = await this.opts.book().list();
    const out: WriteFacts[] = [];
    for (const w of rows) {
      const currency = String(w.currency);
      const chain = String(w.chain);
      const key = `${currency}\u0000${chain}`;
      if (!saved.has(key))
        saved.set(
          key,
          session.client
            .request(
              {
                method: 'GET',
                path: '/wallet/saved_address',
                query: [
                  ['currency', currency],
                  ['chain', chain],
                ],
                priority: 'action',
              },
              listOf(SavedAddress),
            )
            .catch(() => []),
        );
      if (!prices.has(currency)) prices.set(currency, this.usdtPrice(session, currency));
      const c = classifyDestination(
        { currency, chain, address: String(w.address), ...(w.memo ? { memo: String(w.memo) } : {}) },
        await saved.get(key)!,
        book,
        this.opts.now(),
        this.opts.book().coolingOffMs,
      );
      out.push({ currency, amount: String(w.amount), destination: c.destination, usdt_price: await prices.get(currency)! });
    }
    return out;
  }

  async usdtPrice(session: ActiveSession, currency: string): Promise<string | null> {
    if (currency === 'USDT') return '1';
    try {
      const t = await session.client.request(
        { method: 'GET', path: '/spot/tickers', query: [['currency_pair', `${currency}_USDT`]], priority: 'action' },
        Tickers,
      );
      return typeof t[0]?.last === 'string' && Number(t[0].last) > 0 ? t[0].last : null;
    } catch {
      return null;
    }
  }

  /** Every row as a single write, each row's velocity counting the rows before it; the strictest row's verdict. */
  async batch(
    approvals: Approvals,
    session: ActiveSession,
    spec: BatchSpec,
    ids: readonly string[] | null,
    fees?: ReadonlyMap<string, string>,
  ): Promise<BatchReview & { facts: WriteFacts[] }> {
    const ctx = this.context(
      approvals,
      session,
      spec.writes.map((w) => w.write),
    );
    const leaving = new Map<string, Dec>();
    const rows: BatchReview['rows'] = [];
    const facts: WriteFacts[] = [];
    for (const [i, w] of spec.writes.entries()) {
      const currency = String((w.write.input as { currency?: string }).currency);
      const before = leaving.get(currency) ?? new Dec(0);
      const r = await this.one(ctx, w.write, ids?.[i] ?? null, before.toFixed(), ['writes', i, 'write']);
      if (OUTFLOW_KINDS.has(w.write.kind)) leaving.set(currency, before.plus(dec(String(r.body.amount))));
      rows.push(r as BatchReview['rows'][number]);
      facts.push(r.facts);
    }
    return { rows, verdict: strictest(rows.map((r) => r.verdict)), totals: totalsOf(rows, fees), facts };
  }
}
