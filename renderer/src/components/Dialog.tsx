import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A modal dialog on the platform's <dialog> (showModal): the rest of the window is inert, so focus
 * stays inside; Escape closes it; on close focus goes back to what had it before (the button that
 * opened it), never to the page body.
 */
export function Dialog({ label, onClose, children, role = 'dialog' }: {
  label: string; onClose: () => void; children: ReactNode; role?: 'dialog' | 'alertdialog';
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
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
      if (opener?.isConnected) opener.focus();
    };
  }, [opener]);
  return <dialog ref={ref} className="dialog" role={role === 'alertdialog' ? 'alertdialog' : undefined} aria-label={label}>{children}</dialog>;
}
