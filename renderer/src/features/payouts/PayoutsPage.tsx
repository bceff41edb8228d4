import { useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { ChannelRequest } from '../../../../shared/ipc.ts';
import { PAYOUT_COLUMNS, PayoutFile, REQUIRED_PAYOUT_COLUMNS } from '../../../../shared/payouts.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { operatorMessage } from '../../desk/desk.ts';
import { useDeskMutation } from '../../desk/hooks.ts';
import { BatchProgress } from './BatchProgress.tsx';
import { ImportReview } from './ImportReview.tsx';
import { PayoutBatches } from './PayoutBatches.tsx';
import { readPayoutFile } from './readFile.ts';
import './payouts.css';

const OPTIONAL = PAYOUT_COLUMNS.filter((c) => !(REQUIRED_PAYOUT_COLUMNS as readonly string[]).includes(c));

/** Payouts from a file: pick a CSV, read the core's checks row by row, send the valid rows as one batch, follow it. */
export default function PayoutsPage() {
  const [search, setSearch] = useSearchParams();
  const batch = search.get('batch');
  const [picked, setPicked] = useState<ChannelRequest<'payoutsImport'> | null>(null);
  const importIt = useDeskMutation('payoutsImport');
  const queue = useDeskMutation('payoutsQueue');
  // The form's values are the request itself: the file's name and bytes, checked by the contract's PayoutFile.
  const { handleSubmit, setValue, setError, clearErrors, onField, putOnField, formState } = useDeskForm(PayoutFile, {
    defaultValues: { file: '', content_base64: '' },
  });
  const problem = fieldMessage(formState.errors.file ?? formState.errors.content_base64);
  const check = handleSubmit((file) => {
    setPicked(file);
    importIt.mutate(file, { onError: putOnField });
  });

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0];
    // Emptied, so that picking the same file again after fixing it reads it again.
    e.target.value = '';
    clearErrors();
    importIt.reset();
    queue.reset();
    if (!f) return;
    readPayoutFile(f).then(
      (file) => {
        setValue('file', file.file);
        setValue('content_base64', file.content_base64);
        void check();
      },
      (error: unknown) => setError('content_base64', { type: 'read', message: operatorMessage(error) }),
    );
  };
  const send = () => {
    const review = importIt.data;
    if (!picked || !review) return;
    const rows = review.rows.filter((r) => r.problems.length === 0).map((r) => r.row);
    queue.mutate({ ...picked, rows }, { onSuccess: (q) => setSearch({ batch: q.ref }) });
  };

  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Payouts</h1>
        {batch && (
          <button type="button" onClick={() => setSearch({})}>
            Import another file
          </button>
        )}
      </header>
      <PayoutBatches open={batch} onOpen={(ref) => setSearch({ batch: ref })} />
      {batch ? (
        <BatchProgress batchRef={batch} />
      ) : (
        <>
          <p className="muted">
            A CSV file with a header row naming the columns {REQUIRED_PAYOUT_COLUMNS.join(', ')}, and optionally {OPTIONAL.join(', ')}. The
            desk checks every row as it checks one withdrawal (the chain, memo, precision, limits and fee), flags rows that repeat a
            destination, amount and reference, and sends the valid rows as one batch for approval.
          </p>
          <Field label="Payout file" hint="CSV, UTF-8, at most 500 rows" error={problem}>
            <input type="file" accept=".csv,text/csv" onChange={pick} />
          </Field>
          {importIt.isPending && <p role="status">Checking {picked?.file}…</p>}
          {importIt.isError && !onField(importIt.error) && <ErrorPanel error={importIt.error} />}
          {importIt.data && <ImportReview review={importIt.data} queue={send} queuing={queue.isPending} queueError={queue.error} />}
        </>
      )}
    </section>
  );
}
