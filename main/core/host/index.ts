/**
 * The public face of main/core/host/ (docs/architecture.md, "main/core"): what the other sections and the
 * hosts use. Other folders import this section only through here; inside it, modules import each other.
 */
export { createHubdeskCore } from './create-hubdesk-core';
export { UNSENDABLE_ANSWER, sendableEnvelope, serialiseBounded } from './frame-guard';
export type { CoreDeps, HubdeskCore } from './hubdesk-core';
export type { Dispatch } from './ipc-dispatcher';
