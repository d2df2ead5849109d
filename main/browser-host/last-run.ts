/**
 * What the next run of the browser host needs from the last one on the same profile, in
 * `<profile>/browser-host.json` (0600, written atomically): the port it listened on, so it listens
 * there again when it is free, and the resume key it gave its tabs, so they can prove they were its
 * own (docs/architecture.md, "The browser host across restarts"). Read as untrusted: anything
 * malformed is no last run.
 */
import { z } from 'zod';
import { TokenSchema } from '../../common/bridge-protocol';
import type { KeyValueStore } from '../core/shared';

const LAST_RUN_KEY = 'lastRun';

const LastRunSchema = z.object({
  port: z.number().int().min(1).max(65_535),
  resumeKey: TokenSchema,
});

export type LastRun = z.infer<typeof LastRunSchema>;

export function readLastRun(store: KeyValueStore): LastRun | undefined {
  const parsed = LastRunSchema.safeParse(store.get(LAST_RUN_KEY));
  return parsed.success ? parsed.data : undefined;
}

export function saveLastRun(store: KeyValueStore, run: LastRun): void {
  store.set(LAST_RUN_KEY, LastRunSchema.parse(run));
}
