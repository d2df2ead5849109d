/**
 * What every domain of the IPC contract shares (common/ipc-contract.ts assembles the domains): who may
 * call a verb, and the argument schemas several domains use.
 */
import { z } from 'zod';

/**
 * Who may call a verb: `signed-in` verbs are refused with `signed-out` by the dispatcher while nobody is
 * signed in (or a saved sign-in is being restored: then they wait for the cloud like any call);
 * `anyone` verbs work signed out too (sign-in itself, settings, webhooks, which the forwarder
 * authenticates by their own secrets). The dispatcher enforces it, so handlers do not repeat the check.
 */
export type Access = 'signed-in' | 'anyone';
export const SIGNED_IN: Access = 'signed-in';
export const ANYONE: Access = 'anyone';

export const hubId = z.string().min(1).max(200);
export const deviceId = z.string().min(1).max(200);
export const noArgs = z.tuple([]);
