/** Raw text (labels, the exchange's own messages, internal names) kept out of sight under a "Details" disclosure. */
export function RawDetails({ lines }: { lines: ReadonlyArray<string | null | undefined> }) {
  const shown = lines.filter((l): l is string => !!l);
  if (shown.length === 0) return null;
  return (
    <details className="raw-details">
      <summary>Details</summary>
      {shown.map((l, i) => (
        <p key={i} className="mono long-value small">
          {l}
        </p>
      ))}
    </details>
  );
}
