/** Copies a text to the clipboard, and says whether it worked (in a live region the screen reader reads). */
import { type Ref, useImperativeHandle, useState } from 'react';

/** Copies as a press of the button would (a keyboard shortcut's way in). */
export interface CopyHandle {
  copy(): void;
}

export interface CopyButtonProps {
  text: string;
  label?: string;
  /** Said after a copy, e.g. "Link copied." */
  copied: string;
  /** Said when the clipboard refused, e.g. "Could not copy; select the link and copy it." */
  failed: string;
  disabled?: boolean;
  title?: string;
  ref?: Ref<CopyHandle>;
}

export function CopyButton({ text, label = 'Copy', copied, failed, disabled, title, ref }: CopyButtonProps) {
  const [state, setState] = useState<'copied' | 'failed' | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  useImperativeHandle(ref, () => ({ copy: () => void (disabled || copy()) }));
  return (
    <>
      <button type="button" onClick={copy} disabled={disabled} title={title}>
        {label}
      </button>
      {/* A live region (not a `status` role: next to a connection indicator that is one, it would be a second). */}
      <span aria-live="polite" className="muted">
        {state === 'copied' ? copied : state === 'failed' ? failed : ''}
      </span>
    </>
  );
}
