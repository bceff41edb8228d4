import type { IntentView } from '../../../../shared/ipc.ts';
import { useDeskQuery } from '../../desk/hooks.ts';
import { InDoubt } from '../../components/InDoubt.tsx';
import { KIND_NAMES, outcomeWords, STATE_NAMES, summary, TROUBLE_STATES } from '../activity/index.ts';

/** The exchange's refusal as a sentence (POC_FILL_IMMEDIATELY, BALANCE_NOT_ENOUGH, ...), or the journal's reason. */
export function outcomeText(i: IntentView): string {
  return outcomeWords(i).words;
}

/** What this desk sent for the pair (orders and cancels) and how each ended, from the write journal. */
export function SentOrders({ pair, sub }: { pair: string; sub?: string }) {
  const intents = useDeskQuery('intentsList', { unfinished_only: false, limit: 100 });
  const mine = (intents.data?.items ?? [])
    .filter((i) => i.kind.startsWith('spot_') && i.body.currency_pair === pair && i.signer === sub)
    .slice(0, 5);
  if (!mine.length) return null;
  return (
    <section className="card" aria-label="Sent from this desk">
      <h2>Sent from this desk</h2>
      <table className="table compact" data-testid="sent-orders">
        <tbody>
          {mine.map((i) => (
            <tr key={i.id} data-intent={i.id} data-state={i.state} data-label={i.label ?? ''}>
              <td>{KIND_NAMES[i.kind]}</td>
              <td className="wrap">{summary(i)}</td>
              <td>
                {STATE_NAMES[i.state]}
                {i.exchange_id ? ` (order ${i.exchange_id})` : ''}
                <InDoubt state={i.state} until={i.doubt_until} />
              </td>
              <td className={`wrap ${TROUBLE_STATES.has(i.state) ? 'field-error' : 'muted'}`} data-testid="outcome">
                {TROUBLE_STATES.has(i.state) || i.label ? outcomeText(i) : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
