/**
 * The bench's child processes still running when it ends (a part that threw leaves its servers behind):
 * found by their parent's id in /proc and stopped, with their process group when they lead one (`npm
 * start` runs detached). Linux only; elsewhere nothing is found.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Direct children of this process: pid, process group and command name. */
function children(): { pid: number; group: number; name: string }[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  const found: { pid: number; group: number; name: string }[] = [];
  for (const entry of entries) {
    try {
      // pid (comm) state ppid pgrp …; the name may hold spaces and parentheses, so split after its last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const [, ppid, pgrp] = stat.slice(close + 2).split(' ');
      if (Number(ppid) === process.pid) found.push({ pid: Number(entry), group: Number(pgrp), name: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * Stops every child still running (SIGKILL); returns their names, empty when none was left. esbuild's
 * service (tsx and compiled-servers.ts compile through it) is the bench's own and ends with it.
 */
export function stopLeftoverChildren(): string[] {
  const left = children().filter(({ name }) => name !== 'esbuild');
  for (const { pid, group } of left) {
    try {
      process.kill(group === pid ? -pid : pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left.map(({ pid, name }) => `${name} (${pid})`);
}
