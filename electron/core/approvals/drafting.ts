import type { z } from 'zod';
import type { RemovedEntry } from '../../../shared/addressBook.ts';
import type { BatchPayload, BatchReview, BatchRow, BatchSpec } from '../../../shared/api/batch.ts';
import type { WriteFacts } from '../../../shared/api/policy.ts';
import type { WriteRequest } from '../../../shared/api/writes.ts';
import { InputError } from '../errors.ts';
import { entryKey, removedEntries } from '../governance/state.ts';
import type { Session } from '../session.ts';
import type { NewEntry } from './addressBook.ts';
import type { DomainGovernance } from './domains.ts';
import { asInput } from './inputErrors.ts';
import type { JudgedReview, Reviewer } from './review.ts';
import type { Approvals } from './service.ts';

// Drafting from the main window: a write or a batch reviewed under the policy with what the desk knows
// around it (review.ts), then drafted as a ticket its drafter signs in the confirmation window; and the
// tickets of the address book and of the Approvals page's proposals (ticketFor).

export interface DraftingOptions {
  domains: DomainGovernance;
  reviewer: Reviewer;
  session: Session;
  now: () => number;
  onChange: () => void;
}

export class Drafting {
  private readonly now: () => number;

  constructor(private readonly opts: DraftingOptions) {
    this.now = opts.now;
  }

  async review(write: z.output<typeof WriteRequest>, id: string | null = null): Promise<JudgedReview> {
    const { approvals, session } = this.opts.domains.forActive();
    return this.opts.reviewer.one(this.opts.reviewer.context(approvals, session, [write]), write, id, '0');
  }

  /**
   * Every row reviewed as a single write would be, the 24-hour velocity of each counting the rows before
   * it (so a batch cannot pass a velocity rule row by row), and the batch's verdict: its strictest row's.
   */
  async reviewBatch(
    spec: BatchSpec,
    ids: readonly string[] | null = null,
    fees?: ReadonlyMap<string, string>,
  ): Promise<BatchReview & { facts: WriteFacts[] }> {
    const { approvals, session } = this.opts.domains.forActive();
    return this.opts.reviewer.batch(approvals, session, spec, ids, fees);
  }

  /** Opens a confirmation-window ticket for the whole batch; each row has its own id, signed with the rest. */
  async draftBatch(
    spec: BatchSpec,
    fees?: ReadonlyMap<string, string>,
  ): Promise<{ ticket: string; title: string; ref: string; rows: BatchRow[] }> {
    const ref = this.opts.session.newOrderId(this.now());
    const ids = spec.writes.map(() => this.opts.session.newOrderId(this.now()));
    const review = await this.reviewBatch(spec, ids, fees);
    const { approvals, session } = this.opts.domains.forActive();
    const rows: BatchRow[] = review.rows.map((r, i) => ({
      ref: ids[i]!,
      kind: r.kind,
      body: r.body,
      ...(r.signer ? { signer: r.signer } : {}),
      ...(spec.writes[i]!.note ? { note: spec.writes[i]!.note } : {}),
    }));
    const payload: BatchPayload = {
      batch: spec.batch,
      title: spec.title,
      source: spec.source,
      rows,
      verdict: review.verdict,
      totals: review.totals,
      facts: review.facts,
    };
    const t = await approvals.draftBatchTicket(session.id, ref, payload).catch(asInput);
    this.opts.onChange();
    return { ticket: t.id, title: t.title, ref, rows };
  }

  async draft(write: z.output<typeof WriteRequest>, note?: string): Promise<{ ticket: string; title: string; ref: string }> {
    const ref = this.opts.session.newOrderId(this.now());
    const r = await this.review(write, ref);
    const { approvals, session } = this.opts.domains.forActive();
    const t = await approvals.draftTicket(session.id, ref, write.kind, r.body, r.verdict, note, r.signer, r.facts).catch(asInput);
    this.opts.onChange();
    return { ticket: t.id, title: t.title, ref };
  }

  /** Removing an entry is a governance change: the change quorum, effective once approved (it only takes trust away). */
  async addressBookRemoveTicket(e: RemovedEntry): Promise<{ ticket: string; title: string }> {
    const entry = (await this.opts.domains.book.withReadiness()).find((b) => entryKey(b) === entryKey(e));
    if (!entry) throw new InputError(['address'], 'that entry is not in the address book.');
    if (entry.removed) throw new InputError(['address'], 'that entry was removed already.');
    const payload = JSON.stringify({
      added_at: e.added_at,
      address: e.address,
      chain: e.chain,
      currency: e.currency,
      ...(e.memo ? { memo: e.memo } : {}),
    });
    const title = `Remove ${e.address} (${e.currency} on ${e.chain}) from the address book`;
    return this.ticketFor((a) => a.removeAddressTicket(payload, title));
  }

  /** An address-book entry waits for an operator's signature in the confirmation window; it exists from then on. */
  async addressBookTicket(e: NewEntry): Promise<{ ticket: string; title: string }> {
    this.opts.domains.book.checkNew(e, removedEntries(await this.opts.domains.forActive().approvals.load()));
    const payload = JSON.stringify({ currency: e.currency, chain: e.chain, address: e.address, ...(e.memo ? { memo: e.memo } : {}) });
    const title = `Add ${e.address} (${e.currency} on ${e.chain}) to the address book`;
    const book = this.opts.domains.book;
    return this.ticketFor((a) =>
      a.detachedTicket(
        'address_book',
        payload,
        title,
        (sign) => book.add(e, sign),
        (s) => (book.has(e, removedEntries(s)) ? 'that address is in the address book already' : null),
      ),
    );
  }

  async ticketFor(
    make: (a: Approvals) => Promise<{ id: string; title: string }> | { id: string; title: string },
  ): Promise<{ ticket: string; title: string }> {
    const { approvals } = this.opts.domains.forActive();
    const t = await Promise.resolve()
      .then(() => make(approvals))
      .catch(asInput);
    this.opts.onChange();
    return { ticket: t.id, title: t.title };
  }
}
