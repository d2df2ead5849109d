/**
 * `npm run forwarder` as its own process, for the tests that start, stop and kill it: `node --import tsx`
 * (one process, so a SIGKILL kills the forwarder itself, as a crash would). Stopped with SIGTERM when the
 * test ends.
 */
import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';

/** What the CLI prints on its one line of stdout. */
export interface ForwarderInfo {
  webhook_url: string;
  tools_url: string;
  health: { alive: string; ready: string; metrics: string };
  webhook: { id: string; name: string; secret: string; tap_credential: string };
}

export function runForwarderCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/forwarder-cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM')));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.slice(0, stdout.indexOf('\n'))));
    void exited.then((code) => reject(new Error(`exited with ${code} before printing: ${stderr}`)));
  });
  firstLine.catch(() => {}); // awaited only by the tests that expect a line
  const info = firstLine.then((line) => JSON.parse(line) as ForwarderInfo);
  info.catch(() => {});
  return { child, exited, firstLine, info, output: () => ({ stdout, stderr }) };
}
