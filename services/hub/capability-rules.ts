/**
 * Whether a value fits a capability, by its metadata (type; a number's min, max and step; an enum's
 * values). Returns the reason a person can read, or undefined when the value fits. Setability and
 * availability are the home's concern, not the value's.
 */
import type { CapabilityValue } from '../../common/hub-control';
import type { CapabilityState } from '../../common/wire';

/** How far off a step a number may be (in steps), so 0.3 on a 0.01 step counts as on it. */
const STEP_TOLERANCE = 1e-9;

export function valueProblem(capability: CapabilityState, value: CapabilityValue): string | undefined {
  switch (capability.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${capability.id} takes true or false.`;
    case 'string':
      return typeof value === 'string' ? undefined : `${capability.id} takes a string.`;
    case 'enum': {
      const ids = capability.values?.map((entry) => entry.id) ?? [];
      return typeof value === 'string' && ids.includes(value) ? undefined : `${capability.id} takes one of: ${ids.join(', ')}.`;
    }
    case 'number':
      return typeof value === 'number' ? numberProblem(capability, value) : `${capability.id} takes a number.`;
  }
}

function numberProblem({ id, min, max, step }: CapabilityState, value: number): string | undefined {
  if (min !== undefined && value < min) return `${id} must be at least ${min}.`;
  if (max !== undefined && value > max) return `${id} must be at most ${max}.`;
  if (step !== undefined && step > 0) {
    const steps = (value - (min ?? 0)) / step;
    if (Math.abs(steps - Math.round(steps)) > STEP_TOLERANCE) return `${id} moves in steps of ${step}${min === undefined ? '' : ` from ${min}`}.`;
  }
  return undefined;
}
