/**
 * The profile folder of either host: made if missing, and set to 0700 at every start, an existing one
 * too (`mkdir`'s mode applies only to a folder it makes; docs/security.md, "Electron" and
 * "Browser host"). Windows has no such modes: the user's profile folder is private already.
 */
import { chmodSync, mkdirSync } from 'node:fs';

export function makePrivateFolder(path: string, platform: NodeJS.Platform = process.platform): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (platform !== 'win32') chmodSync(path, 0o700);
}
