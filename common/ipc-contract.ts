/**
 * The one IPC contract between main and the renderer, for both hosts (Electron IPC and the browser
 * host's loopback WebSocket). Every invoke channel is `namespace.verb` with a runtime schema for its
 * arguments and result; every event has a schema for its payload. Main validates all arguments with
 * these schemas; the renderer imports types only (plus `createBridge`, common/contract-bridge.ts, which is
 * transport-agnostic). Each domain's schemas, verbs and events are in common/contract/ (docs/architecture.md,
 * "main/core", the contract); this module assembles them into the one table of verbs and the one of events.
 */
import type { z } from 'zod';
import type { Envelope } from './app-error';
import { desktopEvents, desktopInvokes } from './contract/desktop';
import { hubsEvents, hubsInvokes } from './contract/hubs';
import { insightsInvokes } from './contract/insights';
import { inspectorEvents, inspectorInvokes } from './contract/inspector';
import { sessionEvents, sessionInvokes } from './contract/session';
import { webhooksEvents, webhooksInvokes } from './contract/webhooks';

export type { Access } from './contract/shared';
export * from './contract/session';
export * from './contract/hubs';
export * from './contract/insights';
export * from './contract/webhooks';
export * from './contract/inspector';
export * from './contract/desktop';

// ---- Channels: every domain's verbs and events, in one table each.

export const invokeContract = {
  ...sessionInvokes,
  ...hubsInvokes,
  ...insightsInvokes,
  ...webhooksInvokes,
  ...inspectorInvokes,
  ...desktopInvokes,
} as const;

export const eventContract = {
  ...sessionEvents,
  ...inspectorEvents,
  ...webhooksEvents,
  ...hubsEvents,
  ...desktopEvents,
} as const;

export type InvokeContract = typeof invokeContract;
export type Channel = keyof InvokeContract;
export type EventName = keyof typeof eventContract;
export type ArgsOf<C extends Channel> = z.infer<InvokeContract[C]['args']>;
export type ResultOf<C extends Channel> = z.infer<InvokeContract[C]['result']>;
export type EventPayload<E extends EventName> = z.infer<(typeof eventContract)[E]>;

export const CHANNELS = Object.keys(invokeContract) as Channel[];
export const EVENT_NAMES = Object.keys(eventContract) as EventName[];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && Object.hasOwn(invokeContract, value);
}
export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(eventContract, value);
}

/** Main-side implementation of every channel. */
export type Handlers = { [C in Channel]: (...args: ArgsOf<C>) => Promise<ResultOf<C>> };

// ---- The bridge: verbs grouped by namespace (`bridge.auth.signIn()`), built from the contract.

type Namespace<C extends string> = C extends `${infer NS}.${string}` ? NS : never;
type VerbOf<C extends string, NS extends string> = C extends `${NS}.${infer V}` ? V : never;

type Verb<C extends Channel> = (...args: ArgsOf<C>) => Promise<Envelope<ResultOf<C>>>;

export type BridgeVerbs = {
  [NS in Namespace<Channel>]: { [C in Extract<Channel, `${NS}.${string}`> as VerbOf<C, NS>]: Verb<C> };
};

export interface Bridge extends BridgeVerbs {
  /** Subscribe to an event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
