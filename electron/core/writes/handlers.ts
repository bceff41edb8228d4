import type { IntentCursor, IntentPage, IntentView } from '../../../shared/ipc.ts';
import { InputError, JournalDamagedWritesError } from '../errors.ts';
import type { Handlers } from '../handlerDeps.ts';
import { needApprovals, writesOf } from '../handlerGuards.ts';
import { governs } from '../policy/engine.ts';

type WriteChannels = 'writePrepare' | 'writeApprove' | 'writeCancel' | 'writeSettle' | 'intentsList';

/** How long writeApprove waits for the exchange's first answer before it answers with the state so far. */
const APPROVE_ANSWER_MS = 10_000;

/** The executor refuses an operation on an intent in the wrong state with a plain Error: that is the operator's input. */
function asInput<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error && !(e instanceof InputError) && !(e instanceof JournalDamagedWritesError))
      throw new InputError(['id'], e.message);
    throw e;
  }
}

type Key = Pick<IntentView, 'created_at' | 'id'>;
/** Newest first, ties broken by id: the order the cursor walks. */
const newestFirst = (a: Key, b: Key): number => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** One page after `after` (exclusive), and the cursor of the page after it. */
export function intentPage(all: IntentView[], after: IntentCursor | undefined, limit: number): IntentPage {
  const sorted = all.sort(newestFirst);
  const rest = after ? sorted.filter((v) => newestFirst(v, after) > 0) : sorted;
  const items = rest.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rest.length > limit && last ? { created_at: last.created_at, id: last.id } : null };
}

export const writeHandlers: Pick<Handlers, WriteChannels> = {
  writePrepare: async (req, { session }) => asInput(() => writesOf(session).writes.prepare(req.write, req.note)),
  writeApprove: async (req, deps) => {
    const { writes, journal } = writesOf(deps.session);
    const intent = journal.intent(req.id);
    if (intent) {
      // The old path is closed: a governed write is approved only by operators' signatures, given in the confirmation window.
      const { approvals, session } = needApprovals(deps).forActive();
      if (governs((await approvals.policyStatus(session.id)).policy, intent.kind)) {
        throw new InputError(
          ['id'],
          `The approval policy governs ${intent.kind.replace(/_/g, ' ')}s: draft it on the Approvals page and approve it in the confirmation window. Nothing was sent.`,
        );
      }
      const hold = await needApprovals(deps).holdReason();
      if (hold) throw new InputError(['id'], `Nothing is sent: ${hold}.`);
    }
    const driving = asInput(() => writes.approve(req.id, 'operator'));
    // A write whose answer is slow or ambiguous keeps going in the core; its progress arrives as events.
    const early = new Promise<null>((r) => setTimeout(() => r(null), APPROVE_ANSWER_MS).unref?.());
    return (await Promise.race([driving, early])) ?? journal.intent(req.id)!;
  },
  writeCancel: async (req, { session }) => asInput(() => writesOf(session).writes.cancel(req.id, req.reason)),
  writeSettle: async (req, { session }) => asInput(() => writesOf(session).writes.settle(req.id, 'operator', req.outcome, req.note)),
  intentsList: async (req, { session }) => {
    const { journal } = writesOf(session);
    return intentPage(req.unfinished_only ? journal.unfinished() : journal.intents(), req.after, req.limit);
  },
};
