// @ts-check
/* global WebAssembly */
/**
 * Worker thread that hosts QuickJS (WebAssembly) for legacy functions. Plain ES module so that plain
 * Node, tsx and vitest all load it the same way (none of them has to transform it).
 *
 * One job = one sandbox entry: a fresh QuickJS runtime (memory and stack limits, a wall-clock interrupt
 * deadline) and context, the driver (sandbox-driver.mjs), one call of it with three strings, dispose.
 * Nothing but strings crosses into the sandbox and nothing but a string comes back.
 *
 * Protocol (worker-pool.ts): posts {type:'ready'}; receives {id, job: {source, webhookJson, dataJson}};
 * answers {type:'answer', id, answer} with answer {status:'ok', flags} | {status:'error', error, message}.
 */
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, shouldInterruptAfterDeadline } from 'quickjs-emscripten-core';
import { SANDBOX_DRIVER } from './sandbox-driver.mjs';

/** @typedef {{ deadlineMs: number; memoryBytes: number; stackBytes: number }} SandboxLimits */
/** @typedef {{ source: string; webhookJson: string; dataJson: string }} SandboxJob */
/**
 * @typedef {{ status: 'ok'; flags: string }
 *   | { status: 'error'; error: 'timeout' | 'memory' | 'invalid-function' | 'crashed'; message: string }} SandboxAnswer
 */

const MAX_MESSAGE = 300;
const WASM_PAGE_BYTES = 64 * 1024;
/** The variant's initial WebAssembly memory (its INITIAL_MEMORY): static data and the C stack. */
const WASM_BASE_BYTES = 16 * 1024 * 1024;

/** @param {unknown} data @returns {SandboxLimits} */
function readLimits(data) {
  const { deadlineMs, memoryBytes, stackBytes } = /** @type {Record<string, unknown>} */ (data ?? {});
  for (const value of [deadlineMs, memoryBytes, stackBytes]) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error('invalid sandbox limits');
  }
  return /** @type {SandboxLimits} */ ({ deadlineMs, memoryBytes, stackBytes });
}

/** @param {unknown} job @returns {job is SandboxJob} */
function isJob(job) {
  if (typeof job !== 'object' || job === null) return false;
  const { source, webhookJson, dataJson } = /** @type {Record<string, unknown>} */ (job);
  return typeof source === 'string' && typeof webhookJson === 'string' && typeof dataJson === 'string';
}

/**
 * @param {import('quickjs-emscripten-core').QuickJSWASMModule} quickjs
 * @param {SandboxLimits} limits
 * @param {SandboxJob} job
 * @returns {SandboxAnswer}
 */
function runEntry(quickjs, limits, job) {
  const deadline = Date.now() + limits.deadlineMs;
  const runtime = quickjs.newRuntime();
  try {
    runtime.setMemoryLimit(limits.memoryBytes); // see wasmMemory below for the bound that holds
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    const context = runtime.newContext();
    try {
      const driverResult = context.evalCode(SANDBOX_DRIVER, 'legacy-driver.js', { type: 'global' });
      if (driverResult.error) {
        driverResult.error.dispose();
        return { status: 'error', error: 'crashed', message: 'the sandbox could not start (memory limit too small?)' };
      }
      const driver = driverResult.value;
      const args = [job.source, job.webhookJson, job.dataJson].map((text) => context.newString(text));
      const result = context.callFunction(driver, context.undefined, args);
      for (const arg of args) arg.dispose();
      driver.dispose();
      if (result.error) {
        const answer = classifyFailure(context, result.error, deadline);
        result.error.dispose();
        return answer;
      }
      const value = context.typeof(result.value) === 'string' ? context.getString(result.value) : '';
      result.value.dispose();
      return readDriverResult(value);
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}

/**
 * Reads what the driver threw without running sandbox code: a string tag, or (when the deadline
 * interrupt fired, which the driver cannot catch) whatever is left.
 * @param {import('quickjs-emscripten-core').QuickJSContext} context
 * @param {import('quickjs-emscripten-core').QuickJSHandle} error
 * @param {number} deadline
 * @returns {SandboxAnswer}
 */
function classifyFailure(context, error, deadline) {
  const tag = context.typeof(error) === 'string' ? context.getString(error) : '';
  if (tag === 'memory') return { status: 'error', error: 'memory', message: 'the function exceeded the memory limit' };
  if (tag === 'stack') return { status: 'error', error: 'memory', message: 'the function exceeded the stack limit (stack overflow)' };
  if (Date.now() >= deadline) return { status: 'error', error: 'timeout', message: 'the function did not finish within the deadline' };
  return { status: 'error', error: 'crashed', message: 'the sandbox failed unexpectedly' };
}

/** @param {string} value @returns {SandboxAnswer} */
function readDriverResult(value) {
  if (value.startsWith('R') && /^[01]*$/.test(value.slice(1))) return { status: 'ok', flags: value.slice(1) };
  if (value.startsWith('I')) return { status: 'error', error: 'invalid-function', message: value.slice(1, 1 + MAX_MESSAGE) };
  return { status: 'error', error: 'crashed', message: 'the sandbox answered something unexpected' };
}

const port = parentPort;
if (port === null) throw new Error('legacy-worker.mjs must run as a worker thread');
const limits = readLimits(workerData);
/**
 * QuickJS's own memory limit is not enough here: built for WebAssembly it cannot measure its
 * allocations (malloc_usable_size is 0 under Emscripten), so it only refuses single allocations larger
 * than the limit. The hard bound is the WebAssembly memory itself: this worker's QuickJS can never grow
 * beyond its base plus `memoryBytes`, and allocations past that fail inside QuickJS as "out of memory".
 * It is allocated at full size (the OS commits pages only when touched): growing it during an entry
 * was slow enough to push simple allocation loops past the watchdog.
 */
const wasmPages = Math.ceil((WASM_BASE_BYTES + limits.memoryBytes) / WASM_PAGE_BYTES);
const wasmMemory = new WebAssembly.Memory({ initial: wasmPages, maximum: wasmPages });
const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory }));

port.on('message', (/** @type {{ id?: unknown; job?: unknown }} */ message) => {
  const id = message?.id;
  if (!isJob(message?.job)) {
    port.postMessage({ type: 'answer', id, answer: { status: 'error', error: 'crashed', message: 'malformed sandbox job' } });
    return;
  }
  try {
    port.postMessage({ type: 'answer', id, answer: runEntry(quickjs, limits, message.job) });
  } catch {
    // An exception from the WebAssembly host itself (e.g. its native stack) may leave QuickJS's memory
    // inconsistent: answer, then end this worker; the pool starts a fresh one.
    port.postMessage({ type: 'answer', id, answer: { status: 'error', error: 'crashed', message: 'the sandbox host failed; worker replaced' } });
    process.exit(1);
  }
});
port.postMessage({ type: 'ready' });
