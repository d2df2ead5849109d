/**
 * The processes under a process, read from /proc (Linux): a test that stops a program checks that
 * nothing it started is left running (an orphan keeps its ports and its connections).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The process ids of every process below `pid` now (children, their children, …). */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of parents()) children.set(parent, [...(children.get(parent) ?? []), child]);
  const found: number[] = [];
  const visit = (of: number) => {
    for (const child of children.get(of) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Still running (not gone, and not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** The direct children of `pid` now: process id, process group and command name. */
export function childrenOf(pid: number): Array<{ pid: number; group: number; name: string }> {
  return processes()
    .filter(({ stat }) => stat.ppid === pid)
    .map(({ pid: child, stat }) => ({ pid: child, group: stat.pgrp, name: stat.name }));
}

function parents(): Array<[number, number]> {
  return processes().map(({ pid, stat }) => [pid, stat.ppid]);
}

/** Every process now, with its stat; none where there is no /proc (not Linux). */
function processes(): Array<{ pid: number; stat: Stat }> {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: Array<{ pid: number; stat: Stat }> = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) found.push({ pid: Number(name), stat });
  }
  return found;
}

interface Stat {
  name: string;
  state: string;
  ppid: number;
  pgrp: number;
}

/** /proc/<pid>/stat: `pid (comm) state ppid pgrp …`; the name may hold spaces and parentheses, so the rest is read from the last `)`. */
function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  const close = text.lastIndexOf(')');
  const [state, ppid, pgrp] = text.slice(close + 2).split(' ');
  return { name: text.slice(text.indexOf('(') + 1, close), state: state!, ppid: Number(ppid), pgrp: Number(pgrp) };
}
