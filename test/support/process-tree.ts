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

function parents(): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) pairs.push([Number(name), stat.ppid]);
  }
  return pairs;
}

/** /proc/<pid>/stat: `pid (comm) state ppid …`; the name may hold spaces and parentheses, so it is read from the last `)`. */
function statOf(pid: number): { state: string; ppid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: state!, ppid: Number(ppid) };
}
