#!/usr/bin/env node
// @ts-check
/**
 * Keeps the machine busy: N child processes that each spin on a core, for running tests (or anything)
 * on a loaded machine on purpose (docs/testing.md, "A suite that passes on a busy machine").
 *
 *   node scripts/cpu-load.mjs [N] [-- command args…]
 *
 * N defaults to the number of cores. With a command, it runs the command (stdio inherited) with the N
 * busy loops alongside and exits with the command's exit code; without one, it loops until SIGINT or
 * SIGTERM. Once the loops run it writes `cpu-load: N busy` on stderr (test/support/cpu-load.ts waits
 * for that line).
 *
 * No orphans: each busy child checks every 50 ms that its parent is still the process that started it
 * (its ppid changes when the parent dies, even by SIGKILL) and exits if not; the parent also kills them
 * when it exits.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, constants } from 'node:os';
import process from 'node:process';
import { setInterval } from 'node:timers';

/** Runs in each busy child: spin, and look up now and then whether the parent is still there. */
const BUSY_LOOP = `
const parent = process.ppid;
process.stdout.write('busy\\n');
for (;;) {
  const until = Date.now() + 50;
  while (Date.now() < until) {}
  if (process.ppid !== parent) process.exit(0);
}`;

/**
 * Starts `count` busy children; resolves once all of them spin.
 * @param {number} count
 * @returns {Promise<{ stop(): void }>}
 */
async function startBusyLoops(count) {
  const children = Array.from({ length: count }, () => spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const stop = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve, reject) => {
          child.stdout?.once('data', resolve);
          child.once('exit', (code) => reject(new Error(`a busy loop exited before it started (code ${code})`)));
        }),
    ),
  );
  return { stop };
}

/** @param {string[]} args @returns {{ count: number; command: string[] }} */
function parseArgs(args) {
  const dashes = args.indexOf('--');
  const own = dashes < 0 ? args : args.slice(0, dashes);
  const command = dashes < 0 ? [] : args.slice(dashes + 1);
  if (own.length > 1 || (own[0] !== undefined && !/^[1-9]\d*$/.test(own[0]))) {
    throw new Error('usage: node scripts/cpu-load.mjs [N] [-- command args…]');
  }
  return { count: own[0] === undefined ? availableParallelism() : Number(own[0]), command };
}

/** @param {number} code */
function exitWith(code) {
  process.exitCode = code;
  process.exit();
}

async function main() {
  const { count, command } = parseArgs(process.argv.slice(2));
  const loops = await startBusyLoops(count);
  process.stderr.write(`cpu-load: ${count} busy\n`);
  if (command.length === 0) {
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
      process.once(signal, () => {
        loops.stop();
        exitWith(0);
      });
    }
    setInterval(() => {}, 1 << 30); // keeps the process alive until a signal
    return;
  }
  const [file, ...rest] = /** @type {[string, ...string[]]} */ (command);
  const child = spawn(file, rest, { stdio: 'inherit' });
  // The terminal sends SIGINT to the whole group; a SIGTERM to this process alone is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.once('error', (error) => {
    process.stderr.write(`cpu-load: ${error.message}\n`);
    loops.stop();
    exitWith(127);
  });
  child.once('exit', (code, signal) => {
    loops.stop();
    // A command ended by a signal exits as a shell reports it: 128 + the signal's number.
    exitWith(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
  });
}

main().catch((error) => {
  process.stderr.write(`cpu-load: ${error instanceof Error ? error.message : String(error)}\n`);
  exitWith(2);
});
