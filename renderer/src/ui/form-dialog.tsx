/** A modal dialog holding one form: a title, the fields, and Cancel beside the submit button. */
import { type ReactNode, useId } from 'react';
import { ModalDialog } from './modal-dialog';

export interface FormDialogProps {
  title: ReactNode;
  submitLabel: string;
  submitDisabled?: boolean;
  onClose(): void;
  onSubmit(): void;
  children: ReactNode;
}

export function FormDialog({ title, submitLabel, submitDisabled, onClose, onSubmit, children }: FormDialogProps) {
  const titleId = useId();
  return (
    <ModalDialog open labelledBy={titleId} className="form-dialog" onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={submitDisabled}>
            {submitLabel}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
