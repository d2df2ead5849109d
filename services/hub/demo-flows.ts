/**
 * The demo home's flows: named sets of changes ("Good night": lights off and doors locked) a user
 * starts from the app. A flow changes devices through DemoHome.setCapability with no transaction id,
 * so its effects reach realtime subscribers; devices that are unavailable are left out. One flow per
 * home is disabled, to show how a hub refuses it.
 */
import type { CapabilityValue, FlowMap, FlowTriggerResult } from '../../common/hub-control';
import type { Device } from '../../common/wire';
import { type DemoHome, type DemoHomeKind, stableId } from './demo-home';

interface FlowAction {
  /** Which devices the action changes. */
  matches: (device: Device) => boolean;
  capabilityId: string;
  value: CapabilityValue;
}

interface FlowSeed {
  key: string;
  name: string;
  enabled: boolean;
  actions: FlowAction[];
}

export type FlowTriggerOutcome =
  { ok: true; result: FlowTriggerResult } | { ok: false; status: 404 | 409; error: 'unknown_flow' | 'flow_disabled'; description: string };

export interface DemoFlows {
  list(): FlowMap;
  trigger(flowId: string): FlowTriggerOutcome;
}

const ofClass =
  (...classes: string[]) =>
  (device: Device) =>
    classes.includes(device.class);
const inZone =
  (zoneName: string, ...classes: string[]) =>
  (device: Device) =>
    device.zoneName === zoneName && classes.includes(device.class);
const everything = () => true;
const action = (matches: FlowAction['matches'], capabilityId: string, value: CapabilityValue): FlowAction => ({ matches, capabilityId, value });

const FLOWS: Record<DemoHomeKind, FlowSeed[]> = {
  home: [
    { key: 'good-night', name: 'Good night', enabled: true, actions: [action(ofClass('light'), 'onoff', false), action(ofClass('lock'), 'locked', true)] },
    {
      key: 'movie-time',
      name: 'Movie time',
      enabled: true,
      actions: [
        action(inZone('Living room', 'light'), 'onoff', true),
        action(inZone('Living room', 'light'), 'dim', 0.2),
        action(inZone('Living room', 'windowcoverings'), 'windowcoverings_set', 0),
      ],
    },
    { key: 'leaving-home', name: 'Leaving home', enabled: true, actions: [action(everything, 'onoff', false), action(ofClass('lock'), 'locked', true)] },
    { key: 'holiday-lights', name: 'Holiday lights', enabled: false, actions: [action(inZone('Garden', 'light'), 'onoff', true)] },
  ],
  cabin: [
    { key: 'good-night', name: 'Good night', enabled: true, actions: [action(ofClass('light'), 'onoff', false), action(ofClass('lock'), 'locked', true)] },
    {
      key: 'arriving',
      name: 'Arriving',
      enabled: true,
      actions: [action(ofClass('thermostat'), 'target_temperature', 20), action(inZone('Main room', 'light'), 'onoff', true)],
    },
    { key: 'frost-guard', name: 'Frost guard', enabled: false, actions: [action(ofClass('thermostat'), 'target_temperature', 7)] },
  ],
};

export function createDemoFlows(home: DemoHome, now: () => number = Date.now): DemoFlows {
  const flows = new Map(FLOWS[home.kind].map((seed) => [stableId(`${home.kind}/flow/${seed.key}`), seed]));
  return {
    list: () => Object.fromEntries([...flows].map(([id, { name, enabled }]) => [id, { id, name, enabled }])),
    trigger(flowId) {
      const flow = flows.get(flowId);
      if (!flow) return { ok: false, status: 404, error: 'unknown_flow', description: `There is no flow ${flowId} on this hub.` };
      if (!flow.enabled) return { ok: false, status: 409, error: 'flow_disabled', description: `The flow "${flow.name}" is disabled.` };
      for (const device of Object.values(home.devices())) {
        for (const { matches, capabilityId, value } of flow.actions) {
          // A device without the capability, or unavailable, is simply not part of this run.
          if (device.available !== false && device.capabilities.includes(capabilityId) && matches(device))
            home.setCapability(device.id, capabilityId, value, null);
        }
      }
      return { ok: true, result: { id: flowId, triggeredAt: new Date(now()).toISOString() } };
    },
  };
}
