import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { ErrorPanel } from '../../components/ErrorPanel.tsx';
import { useDeskQuery } from '../../desk/hooks.ts';
import { Copy } from '../../components/Copy.tsx';
import { LongValue } from '../../components/LongValue.tsx';

function Qr({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (live) setSrc(`data:image/svg+xml;base64,${btoa(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [text]);
  return src ? <img className="qr" src={src} alt={`QR code of ${label}`} width={140} height={140} /> : null;
}

/** §2.1: where to send a deposit, per chain, with its memo or tag, minimum and confirmations. */
export function DepositAddressPanel() {
  const [currency, setCurrency] = useState('USDT');
  const [asked, setAsked] = useState<string | null>(null);
  const q = useDeskQuery('depositAddress', { currency: asked ?? '' }, { enabled: asked !== null });
  return (
    <section className="card" aria-label="Deposit address">
      <h2>Deposit address</h2>
      <div className="row">
        <input aria-label="Deposit currency" size={8} value={currency} onChange={(e) => setCurrency(e.target.value)} />
        <button type="button" onClick={() => setAsked(currency.trim().toUpperCase())}>
          Show
        </button>
      </div>
      {q.isError && <ErrorPanel error={q.error} />}
      {q.data && (
        <div className="addresses">
          <p className="muted small">
            Minimum deposit: {q.data.min_deposit_amount || 'not stated'} {q.data.currency}
          </p>
          {q.data.multichain_addresses.map((a) => (
            <div key={a.chain} className="address-card" data-chain={a.chain}>
              <h3>{a.chain}</h3>
              {a.obtain_failed ? (
                <p className="field-error">The exchange could not issue an address on this chain.</p>
              ) : (
                <>
                  <Qr text={a.address} label={`${a.chain} address`} />
                  <p>
                    <LongValue text={a.address} copy={`${a.chain} address`} />
                  </p>
                  {a.payment_id && (
                    <p>
                      {a.payment_name || 'Memo'} (required): <span className="mono">{a.payment_id}</span>{' '}
                      <Copy text={a.payment_id} label={`${a.chain} ${a.payment_name || 'memo'}`} />
                    </p>
                  )}
                  <p className="muted small">Credited after {a.min_confirms} confirmations.</p>
                </>
              )}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
