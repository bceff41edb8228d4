import { useState, type FormEvent } from 'react';
import type { AuditCursor } from '../../../../shared/journal.ts';
import { ENTRY_TYPE_NAMES } from '../../../../shared/journal.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { Field } from '../../components/Field.tsx';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { AuditKeys } from './AuditKeys.tsx';
import { downloadJournal } from './download.ts';
import { EntryRows, type Filters } from './EntryRows.tsx';
import { IntentTrail } from './IntentTrail.tsx';
import { VerifyPanel } from './VerifyPanel.tsx';

const EMPTY = { type: '', by: '', from: '', to: '', intent: '' };

function toFilters(f: typeof EMPTY): Filters {
  return Object.fromEntries(
    Object.entries(f)
      .filter(([, v]) => v.trim() !== '')
      .map(([k, v]) => [k, v.trim()]),
  );
}

/** Every entry of the profile's and the approvals journals: filter, follow one intent, verify, export. */
export default function JournalPage() {
  const desk = useDesk();
  const [form, setForm] = useState(EMPTY);
  const [filters, setFilters] = useState<Filters>({});
  const [cursors, setCursors] = useState<(AuditCursor | undefined)[]>([undefined]);
  const [asked, setAsked] = useState(false);
  const verify = useDeskQuery('journalVerify', {}, { enabled: asked });
  const [note, setNote] = useState<string | null>(null);
  const [exportError, setExportError] = useState<unknown>(null);

  const apply = (next: typeof EMPTY) => {
    setForm(next);
    setFilters(toFilters(next));
    setCursors([undefined]);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply(form);
  };
  const exportAs = (format: 'csv' | 'bundle') => {
    setExportError(null);
    downloadJournal(desk, format).then((r) => setNote(`${r.entries} entries exported to ${r.filename}.`), setExportError);
  };
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

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
            Export CSV
          </button>
          <button type="button" onClick={() => exportAs('bundle')}>
            Export signed bundle
          </button>
        </div>
      </header>
      <AuditKeys />
      {verify.data && !verify.isFetching && <VerifyPanel answer={verify.data} />}
      {verify.isError && <ErrorPanel error={verify.error} />}
      {exportError !== null && <ErrorPanel error={exportError} />}
      {note && (
        <p className="muted" role="status">
          {note}
        </p>
      )}
      <form className="row" onSubmit={submit} aria-label="Filter entries">
        <Field label="Kind">
          <select value={form.type} onChange={set('type')}>
            <option value="">All kinds</option>
            {Object.entries(ENTRY_TYPE_NAMES).map(([v, name]) => (
              <option key={v} value={v}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Operator">
          <input value={form.by} onChange={set('by')} />
        </Field>
        <Field label="From (UTC day)">
          <input type="date" value={form.from} onChange={set('from')} />
        </Field>
        <Field label="To (UTC day)">
          <input type="date" value={form.to} onChange={set('to')} />
        </Field>
        <Field label="Intent">
          <input value={form.intent} onChange={set('intent')} />
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
          />
        ))}
      </table>
    </section>
  );
}
