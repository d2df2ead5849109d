/**
 * A modal dialog on the platform's own `<dialog>`: `showModal` gives the focus trap, the inert page
 * behind, the top layer and Escape. Focus goes back to where it was when the dialog closes. `onCancel`
 * may keep the dialog open (return false), e.g. to go back a step instead.
 */
import { type ReactNode, useEffect, useRef } from 'react';

export interface ModalDialogProps {
  open: boolean;
  labelledBy: string;
  className?: string;
  onClose(): void;
  /** Escape was pressed; return false to keep the dialog open. */
  onCancel?(): boolean;
  children: ReactNode;
}

export function ModalDialog({ open, labelledBy, className, onClose, onCancel, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      returnTo?.focus();
    };
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault(); // the store's `open` decides, so the dialog never closes behind React's back
        if (onCancel?.() !== false) onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose(); // a click on the backdrop
      }}
    >
      {open && children}
    </dialog>
  );
}
