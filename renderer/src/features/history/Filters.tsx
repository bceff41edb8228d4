import { useEffect, useState } from 'react';
import type { HistoryFilters } from '../../../../shared/history.ts';

/** Keeps typing cheap: the search reaches the core when the operator pauses (this delay counts in the bench). */
const SEARCH_DEBOUNCE_MS = 30;

function toSec(date: string, end: boolean): number | undefined {
  if (!date) return undefined;
  const ms = Date.parse(`${date}T${end ? '23:59:59' : '00:00:00'}Z`);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

export function Filters({
  value,
  onChange,
  statuses,
  showChain,
  searchLabel,
}: {
  value: HistoryFilters;
  onChange: (f: HistoryFilters) => void;
  statuses: readonly string[];
  showChain: boolean;
  searchLabel: string;
}) {
  const [search, setSearch] = useState(value.search ?? '');
  // The address can change the search from outside (a link to a record while this page is open): the
  // box follows it, or the debounce below would write the old text back over it.
  const [outside, setOutside] = useState(value.search ?? '');
  if ((value.search ?? '') !== outside) {
    setOutside(value.search ?? '');
    setSearch(value.search ?? '');
  }
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  useEffect(() => {
    const t = setTimeout(() => {
      if ((value.search ?? '') !== search) onChange({ ...value, search: search || undefined });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search, value, onChange]);
  const set = (patch: HistoryFilters) => onChange({ ...value, ...patch });
  return (
    <div className="row filters">
      <label className="inline">
        Currency
        <input
          aria-label="Currency"
          size={7}
          value={value.currency ?? ''}
          onChange={(e) => set({ currency: e.target.value.trim() || undefined })}
        />
      </label>
      <label className="inline">
        Status
        <select aria-label="Status" value={value.status ?? ''} onChange={(e) => set({ status: e.target.value || undefined })}>
          <option value="">any</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {showChain && (
        <label className="inline">
          Chain
          <input
            aria-label="Chain"
            size={6}
            value={value.chain ?? ''}
            onChange={(e) => set({ chain: e.target.value.trim() || undefined })}
          />
        </label>
      )}
      <label className="inline">
        From
        <input
          aria-label="From date"
          type="date"
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            set({ from: toSec(e.target.value, false) });
          }}
        />
      </label>
      <label className="inline">
        To
        <input
          aria-label="To date"
          type="date"
          value={to}
          onChange={(e) => {
            setTo(e.target.value);
            set({ to: toSec(e.target.value, true) });
          }}
        />
      </label>
      <input aria-label="Search" placeholder={searchLabel} size={28} value={search} onChange={(e) => setSearch(e.target.value)} />
    </div>
  );
}
