import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

// The status bar keeps one line at any width: its parts stand in order of importance, and those that do not
// fit are hidden in place (visibility, so that the widths measured stay the same) and listed behind a
// "more" button instead.

export interface StatusPart {
  key: string;
  node: ReactNode;
  testid?: string;
  className?: string;
  title?: string;
}

/** How many leading parts fit inside `row`, each whole. */
function fitting(row: HTMLElement): number {
  const limit = row.clientWidth;
  const parts = [...row.children] as HTMLElement[];
  const first = parts.findIndex((p) => p.offsetLeft - row.offsetLeft + p.offsetWidth > limit + 0.5);
  return first === -1 ? parts.length : first;
}

export function StatusParts({ parts }: { parts: StatusPart[] }) {
  const row = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(parts.length);
  const [open, setOpen] = useState(false);
  const listId = useId();
  // Measured whenever the parts are drawn anew (a text changed) and when the window's width changes.
  useLayoutEffect(() => {
    if (row.current) setShown(fitting(row.current));
  }, [parts]);
  useEffect(() => {
    const el = row.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setShown(fitting(el)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const hidden = parts.slice(shown);
  useEffect(() => {
    if (!hidden.length) setOpen(false);
  }, [hidden.length]);
  return (
    <>
      <div className="statusbar-parts" ref={row}>
        {parts.map((p, i) => (
          <span
            key={p.key}
            data-testid={p.testid}
            className={[p.className, i >= shown ? 'statusbar-overflow' : ''].filter(Boolean).join(' ') || undefined}
            title={p.title}
          >
            {p.node}
          </span>
        ))}
      </div>
      <div
        className="statusbar-more"
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
        }}
      >
        <button
          type="button"
          className="link"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          hidden={!hidden.length}
          onClick={() => setOpen((o) => !o)}
        >
          {hidden.length} more
        </button>
        {open && (
          <ul id={listId} className="statusbar-more-list" aria-label="More status">
            {hidden.map((p) => (
              <li key={p.key} className={p.className} title={p.title}>
                {p.node}
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
