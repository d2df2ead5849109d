/** The shortcuts sheet (`?`): every shortcut of the app, from the tables the keys use. */
import { Fragment } from 'react';
import { INSPECTOR_SHORTCUTS, modifierLabel, type Shortcut, SHORTCUTS } from './keyboard-shortcuts';
import { ModalDialog } from './modal-dialog';

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const mod = modifierLabel(navigator.platform);
  return (
    <ModalDialog open={open} labelledBy="shortcuts-title" className="shortcuts-dialog" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <ShortcutList shortcuts={SHORTCUTS} mod={mod} />
      <h3>In the webhook inspector</h3>
      <ShortcutList shortcuts={INSPECTOR_SHORTCUTS} mod={mod} />
      <button type="button" onClick={onClose}>
        Close
      </button>
    </ModalDialog>
  );
}

function ShortcutList({ shortcuts, mod }: { shortcuts: readonly Shortcut[]; mod: string }) {
  return (
    <dl className="shortcut-list">
      {shortcuts.map((shortcut) => (
        <Fragment key={shortcut.description}>
          <dt>
            {shortcut.keys.map((key, index) => (
              <Fragment key={key}>
                {index > 0 && '+'}
                <kbd>{key === 'Mod' ? mod : key}</kbd>
              </Fragment>
            ))}
            {shortcut.or !== undefined && (
              <>
                {' or '}
                <kbd>{shortcut.or}</kbd>
              </>
            )}
          </dt>
          <dd>{shortcut.description}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
