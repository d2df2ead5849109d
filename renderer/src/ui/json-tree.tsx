/**
 * A JSON value as a collapsible tree. Objects and arrays are buttons with aria-expanded, so the tree
 * is usable from the keyboard and by screen readers. Only own keys are shown (Object.entries), and
 * keys such as `__proto__` are plain text here: nothing is evaluated or merged.
 *
 * As docs/webhooks-app.md, "Outcomes and refusals" says: array items show their index; an array or object of more than LONG_CHILDREN starts
 * collapsed and, open, shows its children CHILDREN_PAGE at a time ("Show N more"); each value can be
 * copied, as JSON, or its key path, in the forwarder's own syntax (`formatKeyPath`: `body.a[0]['b-c']`),
 * ready for a registration or the key-path filter. One live region says what was copied.
 */
import { createContext, useContext, useState } from 'react';
import { formatKeyPath, type KeyPathRoot } from '../../../common/key-path';

const OPEN_DEPTH = 2;
export const LONG_CHILDREN = 50;
export const CHILDREN_PAGE = 100;

type Copy = (text: string, what: string) => void;
const CopyContext = createContext<Copy>(() => {});

export function JsonTree({ value, label, root = 'body' }: { value: unknown; label: string; root?: KeyPathRoot }) {
  const [copied, setCopied] = useState('');
  const copy: Copy = (text, what) => {
    navigator.clipboard.writeText(text).then(
      () => setCopied(`Copied ${what}.`),
      () => setCopied('Could not copy to the clipboard.'),
    );
  };
  return (
    <div className="json-tree" role="group" aria-label={label}>
      <CopyContext.Provider value={copy}>
        <JsonNode name={null} path={{ root, segments: [] }} value={value} depth={0} />
      </CopyContext.Provider>
      <span className="visually-hidden" aria-live="polite">
        {copied}
      </span>
    </div>
  );
}

interface NodeProps {
  /** The key as shown: a property name, an array index, or nothing for the root. */
  name: string | number | null;
  path: { root: KeyPathRoot; segments: (string | number)[] };
  value: unknown;
  depth: number;
}

function JsonNode({ name, path, value, depth }: NodeProps) {
  const isBranch = typeof value === 'object' && value !== null;
  const entries = isBranch ? (Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value)) : [];
  const [open, setOpen] = useState(depth < OPEN_DEPTH && entries.length <= LONG_CHILDREN);
  const [shown, setShown] = useState(CHILDREN_PAGE);
  const label =
    name === null ? null : typeof name === 'number' ? <span className="json-index">{name}: </span> : <span className="json-key">{JSON.stringify(name)}: </span>;
  const actions = <CopyActions path={path} value={value} />;

  if (!isBranch) {
    return (
      <div className="json-leaf json-row">
        {label}
        <span className={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value) ?? String(value)}</span>
        {actions}
      </div>
    );
  }
  const [start, end] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="json-leaf json-row">
        {label}
        {start}
        {end}
        {actions}
      </div>
    );
  }
  const rest = entries.length - shown;
  return (
    <div className="json-branch">
      <div className="json-row">
        <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          {label}
          {start}
          {!open && ` … ${entries.length} ${entries.length === 1 ? 'item' : 'items'} ${end}`}
        </button>
        {actions}
      </div>
      {open && (
        <div className="json-children">
          {entries.slice(0, shown).map(([key, item]) => (
            <JsonNode key={key} name={key} path={{ root: path.root, segments: [...path.segments, key] }} value={item} depth={depth + 1} />
          ))}
          {rest > 0 && (
            <button type="button" className="json-more" onClick={() => setShown(shown + CHILDREN_PAGE)}>
              Show {Math.min(rest, CHILDREN_PAGE)} more of {rest}
            </button>
          )}
          <div>{end}</div>
        </div>
      )}
    </div>
  );
}

function CopyActions({ path, value }: { path: NodeProps['path']; value: unknown }) {
  const copy = useContext(CopyContext);
  const keyPath = formatKeyPath(path);
  return (
    <span className="json-actions">
      <button
        type="button"
        aria-label={`Copy the value of ${keyPath}`}
        title="Copy the value"
        onClick={() => copy(JSON.stringify(value, null, 2) ?? String(value), `the value of ${keyPath}`)}
      >
        Copy
      </button>
      <button type="button" aria-label={`Copy the key path ${keyPath}`} title="Copy the key path" onClick={() => copy(keyPath, `the key path ${keyPath}`)}>
        Path
      </button>
    </span>
  );
}
