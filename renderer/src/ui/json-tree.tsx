/**
 * A JSON value as a collapsible tree. Objects and arrays are buttons with aria-expanded, so the tree
 * is usable from the keyboard and by screen readers. Only own keys are shown (Object.entries), and
 * keys such as `__proto__` are plain text here: nothing is evaluated or merged.
 */
import { useState } from 'react';

const OPEN_DEPTH = 2;

export function JsonTree({ value, label }: { value: unknown; label: string }) {
  return (
    <div className="json-tree" role="group" aria-label={label}>
      <JsonNode name={null} value={value} depth={0} />
    </div>
  );
}

function JsonNode({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const label = name === null ? null : <span className="json-key">{JSON.stringify(name)}: </span>;
  if (typeof value !== 'object' || value === null) {
    return (
      <div className="json-leaf">
        {label}
        <span className={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value) ?? String(value)}</span>
      </div>
    );
  }
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  const [start, end] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="json-leaf">
        {label}
        {start}
        {end}
      </div>
    );
  }
  return (
    <div className="json-branch">
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
        {start}
        {!open && ` … ${entries.length} ${entries.length === 1 ? 'item' : 'items'} ${end}`}
      </button>
      {open && (
        <div className="json-children">
          {entries.map(([key, item]) => (
            <JsonNode key={key} name={Array.isArray(value) ? null : key} value={item} depth={depth + 1} />
          ))}
          <div>{end}</div>
        </div>
      )}
    </div>
  );
}
