/**
 * A busy machine for a test: scripts/cpu-load.mjs with `count` busy loops (default two, the cores of the
 * CI machine), started in beforeAll and stopped in afterAll. The loops die with the script, and the
 * script with this process (they check their parent), so a runner that dies leaves nothing spinning.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { projectRoot } from '../e2e/support/processes';

export interface CpuLoad {
  stop(): Promise<void>;
}

export async function startCpuLoad(count = 2): Promise<CpuLoad> {
  const child: ChildProcess = spawn(process.execPath, ['scripts/cpu-load.mjs', String(count)], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'] });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stderr! });
  const busy = new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => line === `cpu-load: ${count} busy` && resolve());
    void exited.then(([code]) => reject(new Error(`scripts/cpu-load.mjs exited (${String(code)}) before its loops ran`)));
  });
  await busy;
  return {
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
