/**
 * What the machine did while a latency was measured, printed beside the figure: on a small shared
 * virtual machine a tail latency says as much about the machine as about the code (docs/benchmarks.md,
 * "Not met: the Redis-mode p99 latency").
 *
 * - Steal: the share of CPU time the host gave to others while this machine's processes wanted it
 *   (`/proc/stat`), in which every process here stands still.
 * - Waiting for a CPU: how long each watched process waited on a run queue per time slice, i.e. from
 *   being woken (a request, a reply) until it ran (`/proc/<pid>/schedstat`: its main thread, the event
 *   loop). Each hop of a delivery (sender → forwarder → Redis → forwarder → listener) pays one such wait.
 *
 * Linux only: where these files are missing the summary says so instead of a figure.
 */
import { readFileSync } from 'node:fs';

interface CpuTimes {
  total: number;
  steal: number;
}

/** `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal … (clock ticks). */
function cpuTimes(): CpuTimes | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: fields.reduce((sum, ticks) => sum + ticks, 0), steal: fields[7] ?? 0 };
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/schedstat: time on a CPU (ns), time waiting on a run queue (ns), time slices. */
function schedStat(pid: number): { waitedNs: number; slices: number } | undefined {
  try {
    const [, waited, slices] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return waited === undefined || slices === undefined ? undefined : { waitedNs: waited, slices };
  } catch {
    return undefined;
  }
}

/**
 * Starts watching; the returned function ends the watch and describes it, e.g.
 * `steal 1.2 %; waited for a CPU per wake-up: forwarder 76 µs, Redis 110 µs`.
 */
export function watchMachine(processes: Record<string, number | undefined>): () => string {
  const cpuBefore = cpuTimes();
  const before = Object.entries(processes).map(([name, pid]) => ({ name, pid, stat: pid === undefined ? undefined : schedStat(pid) }));
  return () => {
    const cpuAfter = cpuTimes();
    const steal =
      cpuBefore && cpuAfter && cpuAfter.total > cpuBefore.total
        ? `steal ${((100 * (cpuAfter.steal - cpuBefore.steal)) / (cpuAfter.total - cpuBefore.total)).toFixed(1)} %`
        : 'steal unknown';
    const waits = before.map(({ name, pid, stat }) => {
      const after = pid === undefined ? undefined : schedStat(pid);
      const slices = stat && after ? after.slices - stat.slices : 0;
      return slices > 0 ? `${name} ${Math.round((after!.waitedNs - stat!.waitedNs) / 1000 / slices)} µs` : `${name} unknown`;
    });
    return `${steal}; waited for a CPU per wake-up: ${waits.join(', ')}`;
  };
}
