/**
 * The two Electron IPC channels that carry the whole contract (common/ipc-contract.ts): one invoke
 * channel for every verb and one event channel. Shared by main and the preload; no `electron` import,
 * so the preload bundle stays small.
 */
export const INVOKE_CHANNEL = 'hubdesk:invoke';
export const EVENT_CHANNEL = 'hubdesk:event';
