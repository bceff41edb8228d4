import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A modal dialog on the platform's <dialog> (showModal): the rest of the window is inert, so focus
 * stays inside; Escape closes it; on close focus goes back to what had it before (the button that
 * opened it), never to the page body.
 */
export function Dialog({
  label,
  onClose,
  children,
  role = 'dialog',
  returnFocus,
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
  role?: 'dialog' | 'alertdialog';
  /** Where focus goes on close when not back to the opener (say, when the dialog removed the opener's row). */
  returnFocus?: () => HTMLElement | null;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const returnRef = useRef(returnFocus);
  returnRef.current = returnFocus;
  // Taken at first render, before an autofocused field inside takes the focus.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal();
    const cancel = (e: Event) => {
      e.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      if (dialog.open) dialog.close();
      // The opener may be gone (the row it sat in was removed): the page's heading takes the focus instead.
      const target = returnRef.current?.() ?? opener;
      if (target?.isConnected) target.focus();
      else document.querySelector<HTMLElement>('main h1')?.focus();
    };
  }, [opener]);
  return (
    <dialog ref={ref} className="dialog" role={role === 'alertdialog' ? 'alertdialog' : undefined} aria-label={label}>
      {children}
    </dialog>
  );
}
