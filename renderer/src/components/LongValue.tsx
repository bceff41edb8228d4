import { Copy } from './Copy.tsx';

/**
 * An address, txid, id or path: it wraps anywhere rather than widening the page, shows itself whole on
 * hover, and (given a `copy` label) offers a copy button.
 */
export function LongValue({ text, copy }: { text: string; copy?: string }) {
  return (
    <>
      <span className="mono long-value" title={text}>
        {text}
      </span>
      {copy && text ? (
        <>
          {' '}
          <Copy text={text} label={copy} />
        </>
      ) : null}
    </>
  );
}
