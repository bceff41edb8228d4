import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { STATUS_TABLES } from '../../../../shared/api/statusWords.ts';
import type { HistoryFilters, HistorySort, TransferRow, UidTransferRow } from '../../../../shared/history.ts';
import { groupDigits } from '../../../../shared/money.ts';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDesk } from '../../desk/DeskProvider.tsx';
import { downloadCsv } from './exportCsv.ts';
import { Filters } from './Filters.tsx';
import { HistoryTable, LongCell, type Column } from './HistoryTable.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import { SyncLine } from './SyncLine.tsx';
import { time } from './time.ts';
import { FORMS, NewTransfer, type TransferFormKind, type Values } from '../transfers/index.ts';

const MAIN_SUB: Column<TransferRow>[] = [
  { id: 'time', header: 'Time (UTC)', width: 140, fixed: true, sort: 'time', render: (r) => time(r.timest) },
  {
    id: 'dir',
    header: 'Direction',
    width: 100,
    render: (r) => (r.direction === 'to' ? 'main → sub' : 'sub → main'),
    title: (r) => (r.direction === 'to' ? 'main → sub' : 'sub → main'),
  },
  {
    id: 'sub',
    header: 'Sub-account',
    width: 100,
    render: (r) => <span className="mono">{r.sub_account}</span>,
    title: (r) => r.sub_account,
  },
  { id: 'type', header: 'Account', width: 80, render: (r) => r.sub_account_type, title: (r) => r.sub_account_type },
  { id: 'amount', header: 'Amount', width: 130, fixed: true, sort: 'amount', num: true, render: (r) => groupDigits(r.amount) },
  { id: 'currency', header: 'Currency', width: 64, fixed: true, render: (r) => r.currency },
  { id: 'status', header: 'Status', width: 180, min: 130, render: (r) => <StatusBadge status={r.status} kind="transfer" /> },
  {
    id: 'coid',
    header: 'Client order id',
    width: 160,
    render: (r) => <LongCell text={r.client_order_id} label="client order id" />,
    title: (r) => r.client_order_id,
  },
];

const UID: Column<UidTransferRow>[] = [
  { id: 'time', header: 'Time (UTC)', width: 140, fixed: true, sort: 'time', render: (r) => time(r.create_time) },
  { id: 'id', header: 'Id', width: 110, render: (r) => <span className="mono">{r.id}</span>, title: (r) => r.id },
  {
    id: 'dir',
    header: 'Direction',
    width: 80,
    render: (r) => (r.transaction_type === 'withdraw' ? 'sent' : 'received'),
    title: (r) => (r.transaction_type === 'withdraw' ? 'sent' : 'received'),
  },
  {
    id: 'peer',
    header: 'Counterpart',
    width: 100,
    render: (r) => <span className="mono">{r.transaction_type === 'withdraw' ? r.receive_uid : r.push_uid}</span>,
  },
  { id: 'amount', header: 'Amount', width: 130, fixed: true, sort: 'amount', num: true, render: (r) => groupDigits(r.amount) },
  { id: 'currency', header: 'Currency', width: 64, fixed: true, render: (r) => r.currency },
  { id: 'status', header: 'Status', width: 180, min: 130, render: (r) => <StatusBadge status={r.status} kind="uid_transfer" /> },
  {
    id: 'flag',
    header: '',
    width: 160,
    render: (r) =>
      r.desk.unsent ? (
        <span className={`unsent-tag ${r.desk.unsent.state}`}>
          {r.desk.unsent.state === 'flagged' ? 'not sent by this desk' : 'acknowledged'}
        </span>
      ) : (
        r.message
      ),
  },
];

function List<K extends 'transfers' | 'uid_transfers'>({ kind }: { kind: K }) {
  const desk = useDesk();
  const [filters, setFilters] = useState<HistoryFilters>({});
  const [sort, setSort] = useState<HistorySort>({ by: 'time', dir: 'desc' });
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const onFilters = useCallback((f: HistoryFilters) => setFilters(f), []);
  return (
    <>
      <div className="row">
        <button
          type="button"
          onClick={() => void downloadCsv(desk, kind, { filters, sort }).then((n) => setNote(`${n} rows exported`), setError)}
        >
          Export CSV
        </button>
        {note && (
          <span className="muted small" role="status">
            {note}
          </span>
        )}
      </div>
      {error && <ErrorPanel error={error} />}
      <Filters
        value={filters}
        onChange={onFilters}
        statuses={Object.keys(STATUS_TABLES[kind === 'transfers' ? 'transfer' : 'uid_transfer'])}
        showChain={false}
        searchLabel={kind === 'transfers' ? 'sub-account or client order id' : 'uid'}
      />
      {kind === 'transfers' ? (
        <HistoryTable
          kind="transfers"
          label="Main/sub transfer list"
          filters={filters}
          sort={sort}
          onSort={setSort}
          columns={MAIN_SUB}
          rowKey={(r) => r.key}
        />
      ) : (
        <HistoryTable
          kind="uid_transfers"
          label="UID transfer list"
          filters={filters}
          sort={sort}
          onSort={setSort}
          columns={UID}
          rowKey={(r) => r.id}
        />
      )}
    </>
  );
}

/** A form opened from the address (`?new=main_sub&sub=101`): the sub-account goes where that form names one. */
function initialFrom(params: URLSearchParams): { form: TransferFormKind; values: Partial<Values> } | null {
  const form = params.get('new');
  if (!form || !(FORMS as readonly string[]).includes(form)) return null;
  const sub = params.get('sub');
  const values: Partial<Values> =
    !sub || !/^\d{1,20}$/.test(sub) ? {} : form === 'sub_to_sub' ? { sub_account_from: sub } : form === 'own' ? {} : { sub_account: sub };
  return { form: form as TransferFormKind, values };
}

export function TransfersPage() {
  const [tab, setTab] = useState<'transfers' | 'uid_transfers'>('transfers');
  const [params, setParams] = useSearchParams();
  const initial = initialFrom(params);
  const [open, setOpen] = useState(initial !== null);
  const toggle = () => {
    if (open) setParams({}, { replace: true });
    setOpen(!open);
  };
  return (
    <section aria-label="Transfers">
      <div className="page-header">
        <h1>Transfers</h1>
        <button type="button" className={open ? '' : 'primary'} aria-expanded={open} onClick={toggle}>
          {open ? 'Close the form' : 'New transfer'}
        </button>
      </div>
      {open && <NewTransfer key={params.toString()} {...(initial ? { initial } : {})} />}
      <SyncLine />
      <div className="segmented" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'transfers'} onClick={() => setTab('transfers')}>
          Main / sub-accounts
        </button>
        <button type="button" role="tab" aria-selected={tab === 'uid_transfers'} onClick={() => setTab('uid_transfers')}>
          UID transfers
        </button>
      </div>
      <List key={tab} kind={tab} />
    </section>
  );
}
