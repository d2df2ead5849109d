/**
 * The bench's child processes still running when it ends (a part that threw leaves its servers behind):
 * found by their parent's id in /proc (test/support/process-tree.ts) and stopped, with their process
 * group when they lead one (`npm start` runs detached). Linux only; elsewhere nothing is found.
 */
import { childrenOf } from '../support/process-tree';

/**
 * Stops every child still running (SIGKILL); returns their names, empty when none was left. esbuild's
 * service (tsx and compiled-servers.ts compile through it) is the bench's own and ends with it.
 */
export function stopLeftoverChildren(): string[] {
  const left = childrenOf(process.pid).filter(({ name }) => name !== 'esbuild');
  for (const { pid, group } of left) {
    try {
      process.kill(group === pid ? -pid : pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left.map(({ pid, name }) => `${name} (${pid})`);
}
