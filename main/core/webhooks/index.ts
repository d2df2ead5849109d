/**
 * The public face of main/core/webhooks/ (docs/architecture.md, "main/core"): what the other sections and the
 * hosts use. Other folders import this section only through here; inside it, modules import each other.
 */
export { openWebhookChannel } from './webhook-channel';
export { createWebhookCreation } from './webhook-creation';
export { createForwarding } from './webhook-forwarding';
export type { ForwardProgress } from './webhook-forwarding';
export { createWebhookHistory } from './webhook-history';
export { createInspectorFace } from './inspector-face';
export { createWebhookListener } from './webhook-listener';
export { createWebhookRegistrations } from './webhook-registrations';
