import { useState } from 'react';
import { DEPOSIT_STATUSES } from '../../../../shared/api/statuses.ts';
import type { DepositRow } from '../../../../shared/history.ts';
import { groupDigits } from '../../../../shared/money.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useAddressedView } from './addressedView.ts';
import { DepositAddressPanel } from './DepositAddressPanel.tsx';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { downloadCsv } from './exportCsv.ts';
import { Filters } from './Filters.tsx';
import { HistoryTable, LongCell, type Column } from './HistoryTable.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { SyncLine } from './SyncLine.tsx';
import { time } from './time.ts';

const COLUMNS: Column<DepositRow>[] = [
  { id: 'time', header: 'Time (UTC)', width: 140, fixed: true, sort: 'time', render: (r) => time(r.timestamp) },
  { id: 'id', header: 'Id', width: 110, render: (r) => <span className="mono">{r.id}</span>, title: (r) => r.id },
  { id: 'status', header: 'Status', width: 260, min: 120, render: (r) => <StatusBadge status={r.status} kind="deposit" /> },
  { id: 'amount', header: 'Amount', width: 130, fixed: true, sort: 'amount', num: true, render: (r) => groupDigits(r.amount) },
  { id: 'currency', header: 'Currency', width: 64, fixed: true, render: (r) => r.currency },
  { id: 'chain', header: 'Chain', width: 64, fixed: true, render: (r) => r.chain },
  { id: 'txid', header: 'Txid', width: 240, render: (r) => <LongCell text={r.txid} label="txid" />, title: (r) => r.txid },
];

const rowKey = (r: DepositRow) => r.id;

export function DepositsPage() {
  const desk = useDesk();
  const { view, onFilters, onSort, onShown } = useAddressedView('deposits');
  const { filters, sort } = view.chosen;
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  return (
    <section aria-label="Deposits">
      <div className="page-header">
        <h1>Deposits</h1>
        <button
          type="button"
          onClick={() => void downloadCsv(desk, 'deposits', { filters, sort }).then((n) => setNote(`${n} rows exported`), setError)}
        >
          Export CSV
        </button>
      </div>
      <SyncLine />
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      {error && <ErrorPanel error={error} />}
      <DepositAddressPanel />
      <Filters value={filters} onChange={onFilters} statuses={Object.keys(DEPOSIT_STATUSES)} showChain searchLabel="address or txid" />
      <HistoryTable
        kind="deposits"
        label="Deposit list"
        filters={view.listed.filters}
        sort={view.listed.sort}
        onSort={onSort}
        columns={COLUMNS}
        rowKey={rowKey}
        onShown={onShown}
      />
    </section>
  );
}
