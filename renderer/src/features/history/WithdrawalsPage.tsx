import { useCallback, useState } from 'react';
import { WITHDRAWAL_STATUSES } from '../../../../shared/api/statuses.ts';
import type { WithdrawalRow } from '../../../../shared/history.ts';
import { groupDigits } from '../../../../shared/digits.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { SendPanel } from '../approvals/panels.ts';
import { useAddressedView } from './addressedView.ts';
import { downloadCsv } from './exportCsv.ts';
import { Filters } from './Filters.tsx';
import { HistoryTable, LongCell, type Column } from './HistoryTable.tsx';
import { SentUnlistedPanel } from './SentUnlistedPanel.tsx';
import { SyncLine } from './SyncLine.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { time } from './time.ts';
import { UnsentPanel } from './UnsentPanel.tsx';
import { WithdrawalDetail } from './WithdrawalDetail.tsx';
import './history.css';

// The list paints from code that loads no schema library: the forms above it (a new withdrawal, the
// acknowledgement of an outflow) check with zod and load when they are opened or have something to
// acknowledge, not before the rows nor during the first interactions with them (docs/performance.md §Long lists).

const COLUMNS: Column<WithdrawalRow>[] = [
  { id: 'time', header: 'Time (UTC)', width: 140, fixed: true, sort: 'time', render: (r) => time(r.timestamp) },
  {
    id: 'id',
    header: 'Id',
    width: 110,
    title: (r) => r.id,
    render: (r) => (
      <span className="mono" data-id={r.id}>
        {r.id}
      </span>
    ),
  },
  { id: 'status', header: 'Status', width: 230, min: 110, render: (r) => <StatusBadge status={r.status} kind="withdrawal" /> },
  { id: 'amount', header: 'Amount', width: 130, fixed: true, sort: 'amount', num: true, render: (r) => groupDigits(r.amount) },
  { id: 'currency', header: 'Currency', width: 64, fixed: true, render: (r) => r.currency },
  { id: 'chain', header: 'Chain', width: 64, fixed: true, render: (r) => r.chain },
  { id: 'address', header: 'Address', width: 240, render: (r) => <LongCell text={r.address} label="address" />, title: (r) => r.address },
  {
    id: 'flag',
    header: '',
    width: 100,
    render: (r) =>
      r.desk.unsent ? (
        <span className={`unsent-tag ${r.desk.unsent.state}`}>
          {r.desk.unsent.state === 'flagged' ? 'not sent by this desk' : 'acknowledged'}
        </span>
      ) : null,
  },
];

const rowKey = (r: WithdrawalRow) => r.id;

export function WithdrawalsPage() {
  const desk = useDesk();
  const { view, onFilters, onSort, onShown } = useAddressedView('withdrawals');
  const { filters, sort } = view.chosen;
  const [selected, setSelected] = useState<string | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const [exportError, setExportError] = useState<Error | null>(null);
  const onSelect = useCallback((r: WithdrawalRow) => setSelected(r.id), []);
  return (
    <section aria-label="Withdrawals">
      <div className="page-header">
        <h1>Withdrawals</h1>
        <button
          type="button"
          onClick={() => {
            setExportError(null);
            downloadCsv(desk, 'withdrawals', { filters, sort }).then(
              (n) => setExported(`${n} rows exported`),
              (e: Error) => setExportError(e),
            );
          }}
        >
          Export CSV
        </button>
      </div>
      <SendPanel />
      <SyncLine />
      {exported && (
        <p className="muted small" role="status">
          {exported}
        </p>
      )}
      {exportError && <ErrorPanel error={exportError} />}
      <UnsentPanel />
      <SentUnlistedPanel />
      <Filters
        value={filters}
        onChange={onFilters}
        statuses={Object.keys(WITHDRAWAL_STATUSES)}
        showChain
        searchLabel="address, txid or order id"
      />
      <div className="history-layout">
        <HistoryTable
          kind="withdrawals"
          label="Withdrawal list"
          filters={view.listed.filters}
          sort={view.listed.sort}
          onSort={onSort}
          columns={COLUMNS}
          rowKey={rowKey}
          selected={selected}
          onSelect={onSelect}
          onShown={onShown}
        />
        {selected && <WithdrawalDetail key={selected} id={selected} onClose={() => setSelected(null)} />}
      </div>
    </section>
  );
}
