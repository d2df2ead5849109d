/**
 * The webhook dialogs' way with their fields (docs/webhooks-app.md): every field is checked on submit, in the
 * order shown, and each problem is said under its own field (`aria-invalid`, `aria-describedby`); the
 * focus goes to the first to fix, and once a problem was said, fields are checked again as they are
 * edited. Used by the add and the edit dialogs (webhook-form.tsx, webhook-edit-form.tsx).
 */
import { useState } from 'react';

export type Problems<N extends string> = Partial<Record<N, string>>;

export function useCheckedForm<F extends object, N extends string, R>(
  prefix: string,
  order: readonly N[],
  initial: F,
  check: (fields: F) => { problems: Problems<N>; result?: R },
) {
  const [fields, setFields] = useState<F>(initial);
  const [problems, setProblems] = useState<Problems<N>>({});

  const change = (patch: Partial<F>) => {
    const next = { ...fields, ...patch };
    setFields(next);
    if (Object.keys(problems).length > 0) setProblems(check(next).problems);
  };
  /** Checks every field: the result when there is nothing to fix, else undefined with the focus on the first problem. */
  const checked = (): R | undefined => {
    const { problems: found, result } = check(fields);
    setProblems(found);
    const first = order.find((name) => found[name] !== undefined);
    if (first === undefined) return result;
    document.getElementById(`${prefix}-${first}`)?.focus();
    return undefined;
  };
  const described = (name: N, hint?: string) => ({
    'aria-invalid': problems[name] !== undefined,
    'aria-describedby': [problems[name] !== undefined ? `${prefix}-${name}-problem` : undefined, hint].filter(Boolean).join(' ') || undefined,
    id: `${prefix}-${name}`,
  });
  const problem = (name: N) =>
    problems[name] !== undefined && (
      <span id={`${prefix}-${name}-problem`} className="error-text field-problem">
        {problems[name]}
      </span>
    );
  return { fields, change, checked, described, problem };
}
