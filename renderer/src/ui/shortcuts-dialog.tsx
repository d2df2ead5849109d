/** The shortcuts sheet (`?`, issue 13 §4): every shortcut of the app, from the one table the keys use. */
import { Fragment } from 'react';
import { modifierLabel, SHORTCUTS } from './keyboard-shortcuts';
import { ModalDialog } from './modal-dialog';

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const mod = modifierLabel(navigator.platform);
  return (
    <ModalDialog open={open} labelledBy="shortcuts-title" className="shortcuts-dialog" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl className="shortcut-list">
        {SHORTCUTS.map((shortcut) => (
          <Fragment key={shortcut.description}>
            <dt>
              {shortcut.keys.map((key, index) => (
                <Fragment key={key}>
                  {index > 0 && '+'}
                  <kbd>{key === 'Mod' ? mod : key}</kbd>
                </Fragment>
              ))}
            </dt>
            <dd>{shortcut.description}</dd>
          </Fragment>
        ))}
      </dl>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </ModalDialog>
  );
}
