import { useId, useMemo } from 'react';
import type { SubAccountDetail } from '../../../../shared/balances.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskMutation } from '../../desk/hooks.ts';
import { floorFormSchema, thresholdFormSchema, type FloorValues, type ThresholdValues } from './alertForms.ts';
import { ratioAsPercent } from '../../../../shared/risk.ts';

/** An input of a one-line form with its problem said beside it. */
function Problem({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <span id={id} className="field-error">
      {text}
    </span>
  ) : null;
}
const invalid = (id: string, text: string | undefined) =>
  text ? { 'aria-invalid': true as const, 'aria-describedby': id } : { 'aria-invalid': undefined, 'aria-describedby': undefined };

export function ThresholdForm({ uid, current }: { uid: string; current: string }) {
  const setThreshold = useDeskMutation('balancesSetThreshold');
  const schema = useMemo(() => thresholdFormSchema(uid), [uid]);
  const { register, handleSubmit, onField, putOnField, formState } = useDeskForm<
    ThresholdValues,
    { uid: string; risk_threshold: string | null }
  >(schema, { defaultValues: { risk_threshold: '' } });
  const problem = fieldMessage(formState.errors.risk_threshold);
  const id = useId();
  const submit = handleSubmit((request) => setThreshold.mutate(request, { onError: putOnField }));
  return (
    <>
      <form className="row" noValidate onSubmit={(e) => void submit(e)}>
        <span data-testid="risk-threshold">Alert when the risk falls below {ratioAsPercent(current)} (110% is liquidation)</span>
        <label>
          <input
            aria-label="Risk threshold (%)"
            className="narrow"
            placeholder="e.g. 150"
            {...register('risk_threshold')}
            {...invalid(`${id}-threshold`, problem)}
          />{' '}
          %
        </label>
        <button type="submit">Set threshold</button>
        <span className="muted small">empty for the default</span>
        <Problem id={`${id}-threshold`} text={problem} />
      </form>
      {setThreshold.error && !onField(setThreshold.error) && <ErrorPanel error={setThreshold.error} />}
    </>
  );
}

export function FloorForm({ uid, floors }: { uid: string; floors: SubAccountDetail['floors'] }) {
  const setFloor = useDeskMutation('balancesSetFloor');
  const schema = useMemo(() => floorFormSchema(uid), [uid]);
  const { register, handleSubmit, onField, putOnField, formState } = useDeskForm<
    FloorValues,
    { uid: string; currency: string; floor: string | null }
  >(schema, { defaultValues: { currency: 'USDT', floor: '' } });
  const currencyProblem = fieldMessage(formState.errors.currency);
  const floorProblem = fieldMessage(formState.errors.floor);
  const id = useId();
  const submit = handleSubmit((request) => setFloor.mutate(request, { onError: putOnField }));
  return (
    <>
      <form className="row" noValidate onSubmit={(e) => void submit(e)}>
        <span>Low-balance floors: {floors.length ? floors.map((f) => `${f.currency} ${f.floor}`).join(', ') : 'none'}</span>
        <input aria-label="Floor currency" className="narrow" {...register('currency')} {...invalid(`${id}-currency`, currencyProblem)} />
        <input
          aria-label="Floor amount"
          placeholder="amount, empty removes"
          {...register('floor')}
          {...invalid(`${id}-floor`, floorProblem)}
        />
        <button type="submit">Set floor</button>
        <Problem id={`${id}-currency`} text={currencyProblem} />
        <Problem id={`${id}-floor`} text={floorProblem} />
      </form>
      {setFloor.error && !onField(setFloor.error) && <ErrorPanel error={setFloor.error} />}
    </>
  );
}
