import { useState } from 'react';
import { z } from 'zod';
import type { AuditCursor } from '../../../../shared/journal.ts';
import { AuditFilters, ENTRY_TYPE_NAMES } from '../../../../shared/journal.ts';
import { fieldMessage, useDeskForm } from '../../components/deskForm.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { AuditKeys } from './AuditKeys.tsx';
import { downloadJournal } from './download.ts';
import { EntryRows, type Filters } from './EntryRows.tsx';
import { IntentTrail } from './IntentTrail.tsx';
import { TeamVerify } from './TeamVerifyPanel.tsx';
import { VerifyPanel } from './VerifyPanel.tsx';

const EMPTY = { type: '', by: '', from: '', to: '', intent: '' };

function toFilters(f: typeof EMPTY): Filters {
  return Object.fromEntries(
    Object.entries(f)
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => [k, v.trim()]),
  );
}

/** The filters as typed (empty: any), checked by the contract's own query under the same names. */
const FilterSchema = z
  .object({ type: z.string(), by: z.string(), from: z.string(), to: z.string(), intent: z.string() })
  .transform(toFilters)
  .pipe(AuditFilters);

/** Every entry of the profile's and the approvals journals: filter, follow one intent, verify, export. */
export default function JournalPage() {
  const desk = useDesk();
  const {
    register,
    handleSubmit,
    reset,
    onField,
    putOnField,
    formState: { errors },
  } = useDeskForm(FilterSchema, { defaultValues: EMPTY });
  const [filters, setFilters] = useState<Filters>({});
  const [cursors, setCursors] = useState<(AuditCursor | undefined)[]>([undefined]);
  const [asked, setAsked] = useState(false);
  const verify = useDeskQuery('journalVerify', {}, { enabled: asked });
  const [note, setNote] = useState<string | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);

  const show = (next: Filters) => {
    setFilters(next);
    setCursors([undefined]);
  };
  const apply = (next: typeof EMPTY) => {
    reset(next);
    show(toFilters(next));
  };
  const submit = handleSubmit(show);
  const exportAs = (format: 'csv' | 'bundle') => {
    setExportError(null);
    const part = format === 'csv' && Object.keys(filters).length > 0;
    downloadJournal(desk, format, filters).then(
      (r) =>
        setNote(`${r.entries} ${r.entries === 1 ? 'entry' : 'entries'}${part ? ' matching the filter' : ''} exported to ${r.filename}.`),
      setExportError,
    );
  };

  return (
    <section className="page">
      <header className="page-header">
        <h1 tabIndex={-1}>Journal</h1>
        <div className="actions">
          <button
            type="button"
            className="primary"
            onClick={() => (asked ? void verify.refetch() : setAsked(true))}
            disabled={verify.isFetching}
          >
            {verify.isFetching ? 'Verifying…' : 'Verify'}
          </button>
          <button type="button" onClick={() => exportAs('csv')}>
            {Object.keys(filters).length > 0 ? 'Export CSV (filtered)' : 'Export CSV'}
          </button>
          <button type="button" onClick={() => exportAs('bundle')} title="Whole journals: a verifier checks every entry against the last">
            Export signed bundle
          </button>
        </div>
      </header>
      <AuditKeys />
      {verify.data && !verify.isFetching && <VerifyPanel answer={verify.data} />}
      {verify.isError && <ErrorPanel error={verify.error} />}
      <TeamVerify />
      {exportError !== null && <ErrorPanel error={exportError} />}
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
      <form className="row" onSubmit={(e) => void submit(e)} aria-label="Filter entries" noValidate>
        <Field label="Kind" error={fieldMessage(errors.type)}>
          <select {...register('type')}>
            <option value="">All kinds</option>
            {Object.entries(ENTRY_TYPE_NAMES).map(([v, name]) => (
              <option key={v} value={v}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Operator" error={fieldMessage(errors.by)}>
          <input {...register('by')} />
        </Field>
        <Field label="From (UTC day)" error={fieldMessage(errors.from)}>
          <input type="date" {...register('from')} />
        </Field>
        <Field label="To (UTC day)" error={fieldMessage(errors.to)}>
          <input type="date" {...register('to')} />
        </Field>
        <Field label="Intent" error={fieldMessage(errors.intent)}>
          <input {...register('intent')} />
        </Field>
        <div className="actions">
          <button type="submit">Filter</button>
          <button type="button" onClick={() => apply(EMPTY)}>
            Clear
          </button>
        </div>
      </form>
      {filters.intent && <IntentTrail intent={filters.intent} />}
      <table className="table" data-testid="journal-entries">
        <thead>
          <tr>
            <th>When</th>
            <th>Entry</th>
            <th>Kind</th>
            <th>Intent</th>
            <th>Operators</th>
            <th>Details</th>
          </tr>
        </thead>
        {cursors.map((after, i) => (
          <EntryRows
            key={`${JSON.stringify(filters)}:${i}`}
            filters={filters}
            after={after}
            last={i === cursors.length - 1}
            onMore={(c) => setCursors([...cursors, c])}
            onFollow={(intent) => apply({ ...EMPTY, intent })}
            onField={onField}
            putOnField={putOnField}
          />
        ))}
      </table>
    </section>
  );
}
