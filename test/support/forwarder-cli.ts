/**
 * `npm run forwarder` as its own process, for the tests that start, stop and kill it (service-program.ts:
 * by default `node --import tsx`, one process, so a SIGKILL kills the forwarder itself, as a crash would).
 */
import { type Launch, startServiceProgram } from './service-program';

/** What the CLI prints on its one line of stdout. */
export interface ForwarderInfo {
  webhook_url: string;
  tools_url: string;
  /** The admin listener: `health` holds its URLs. */
  admin_url: string;
  health: { alive: string; ready: string; metrics: string };
  webhook: { id: string; name: string; secret: string; tap_credential: string };
}

export function runForwarderCli(args: string[], launch: Launch = 'tsx') {
  const program = startServiceProgram('forwarder', args, launch);
  const info = program.firstLine.then((line) => JSON.parse(line) as ForwarderInfo);
  info.catch(() => {});
  return { ...program, info };
}
