/**
 * Bench load: `eventsPerSecond` capability changes spread round-robin over the home's devices, made
 * through DemoHome.setCapability (no transaction id) so they reach realtime subscribers. The count is
 * kept against the clock since start, not per tick, so timer drift never changes the rate over time.
 * Values stay valid: booleans flip, bounded numbers move within their range on their step, other
 * numbers wobble.
 */
import type { CapabilityState } from '../../common/wire';
import type { DemoHome } from './demo-home';
import { intervalTicker, type Runner, type Ticker, tickingRunner } from './ticker';

export const LOAD_TICK_MS = 20;

export interface LoadOptions {
  eventsPerSecond: number;
  tickMs?: number;
  ticker?: Ticker;
  now?: () => number;
  random?: () => number;
}

interface Target {
  deviceId: string;
  capability: CapabilityState;
}

export function createLoadGenerator(home: DemoHome, options: LoadOptions): Runner {
  if (!(options.eventsPerSecond >= 0) || !Number.isFinite(options.eventsPerSecond))
    throw new RangeError(`eventsPerSecond must be a finite number ≥ 0, not ${options.eventsPerSecond}`);
  const now = options.now ?? performance.now.bind(performance);
  const random = options.random ?? Math.random;
  const targets: Target[] = Object.values(home.devices()).flatMap((device) =>
    device.available === false
      ? []
      : Object.values(device.capabilitiesObj ?? {})
          .filter((capability) => capability.type === 'boolean' || capability.type === 'number')
          .map((capability) => ({ deviceId: device.id, capability })),
  );
  let startedAt = 0;
  let sent = 0;
  let next = 0;

  const emitOne = () => {
    const target = targets[next++ % targets.length]!;
    const result = home.setCapability(target.deviceId, target.capability.id, nextValue(target.capability, random), null);
    if (result.ok) target.capability.value = result.event.value;
  };

  const runner = tickingRunner(options.ticker ?? intervalTicker, options.tickMs ?? LOAD_TICK_MS, () => {
    const due = Math.floor(((now() - startedAt) * options.eventsPerSecond) / 1000);
    for (; sent < due; sent++) if (targets.length > 0) emitOne();
  });
  return {
    start() {
      startedAt = now();
      sent = 0;
      runner.start();
    },
    stop: runner.stop,
  };
}

function nextValue(capability: CapabilityState, random: () => number): boolean | number {
  const current = capability.value;
  if (capability.type === 'boolean') return current !== true;
  const { min, max, step } = capability;
  if (min !== undefined && max !== undefined) {
    const unit = step ?? 10 ** -(capability.decimals ?? 2);
    return Math.min(max, min + Math.round((random() * (max - min)) / unit) * unit);
  }
  const base = typeof current === 'number' ? current : 0;
  return Math.round((base + (random() - 0.5) * Math.max(1, Math.abs(base) * 0.1)) * 10) / 10;
}
