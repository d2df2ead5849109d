// @ts-check
/* global WebAssembly */
/**
 * Worker thread that hosts QuickJS (WebAssembly) for legacy functions. Plain ES module so that plain
 * Node, tsx and vitest all load it the same way (none of them has to transform it).
 *
 * One job = one sandbox entry: a fresh QuickJS runtime (memory and stack limits) and context with the
 * driver (sandbox-driver.mjs) evaluated in it, prepared before the job arrives; when the job begins, the
 * wall-clock interrupt deadline starts, the driver is called once with three strings, and the sandbox is
 * disposed. Nothing but strings crosses into the sandbox and nothing but a string comes back.
 *
 * Protocol (worker-pool.ts): posts {type:'ready'} once warm; receives {id, job: {source, webhookJson,
 * dataJson}, progress?} (job-progress.mjs); answers {type:'answer', id, answer} with answer
 * {status:'ok', flags} | {status:'error', error, message}.
 */
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import { markAnswered, markBegun } from './job-progress.mjs';
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
 * @typedef {{ runtime: import('quickjs-emscripten-core').QuickJSRuntime; context: import('quickjs-emscripten-core').QuickJSContext;
 *   driver: import('quickjs-emscripten-core').QuickJSHandle | undefined; failure: SandboxAnswer | undefined; deadline: number }} Sandbox
 */

/**
 * Makes the sandbox for the NEXT job before that job arrives (docs/legacy-functions.md, "How one request
 * runs"): a fresh runtime and context with their limits, and the driver evaluated in it. No legacy code
 * has run in it; it is used by one job and disposed. Nothing is on the job's clock yet: the interrupt
 * deadline is set when the job begins (`runEntry`). A driver that cannot be evaluated (a memory limit
 * too small for it) is kept as the failure that job will answer, named for what it was.
 * @param {import('quickjs-emscripten-core').QuickJSWASMModule} quickjs
 * @param {SandboxLimits} limits
 * @returns {Sandbox}
 */
function prepareSandbox(quickjs, limits) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes); // see wasmMemory below for the bound that holds
  runtime.setMaxStackSize(limits.stackBytes);
  /** @type {Sandbox} */
  const sandbox = { runtime, context: runtime.newContext(), driver: undefined, failure: undefined, deadline: Number.POSITIVE_INFINITY };
  // Reads the deadline of the moment: none while the driver is evaluated, the job's once it begins.
  runtime.setInterruptHandler(() => Date.now() > sandbox.deadline);
  const driverResult = sandbox.context.evalCode(SANDBOX_DRIVER, 'legacy-driver.js', { type: 'global' });
  if (driverResult.error) {
    sandbox.failure = classifyDriverFailure(sandbox.context, driverResult.error);
    driverResult.error.dispose();
  } else sandbox.driver = driverResult.value;
  return sandbox;
}

/** @param {Sandbox} sandbox */
function disposeSandbox(sandbox) {
  sandbox.driver?.dispose();
  sandbox.context.dispose();
  sandbox.runtime.dispose();
}

/**
 * One job in a prepared sandbox: the deadline starts now, the driver is called once, and the sandbox is
 * disposed whatever happens.
 * @param {Sandbox} sandbox
 * @param {SandboxLimits} limits
 * @param {SandboxJob} job
 * @returns {SandboxAnswer}
 */
function runEntry(sandbox, limits, job) {
  try {
    if (sandbox.failure || !sandbox.driver) return sandbox.failure ?? crashed('the sandbox failed unexpectedly');
    const { context, driver } = sandbox;
    const deadline = Date.now() + limits.deadlineMs;
    sandbox.deadline = deadline;
    const args = [job.source, job.webhookJson, job.dataJson].map((text) => context.newString(text));
    const result = context.callFunction(driver, context.undefined, args);
    for (const arg of args) arg.dispose();
    if (result.error) {
      const answer = classifyFailure(context, result.error, deadline);
      result.error.dispose();
      return answer;
    }
    const value = context.typeof(result.value) === 'string' ? context.getString(result.value) : '';
    result.value.dispose();
    return readDriverResult(value);
  } finally {
    disposeSandbox(sandbox);
  }
}

/**
 * Why the driver itself could not be evaluated (before any legacy code: its error is QuickJS's own, so
 * reading its message runs no untrusted code). QuickJS throws null when memory is too short for an error.
 * @param {import('quickjs-emscripten-core').QuickJSContext} context
 * @param {import('quickjs-emscripten-core').QuickJSHandle} error
 * @returns {SandboxAnswer}
 */
function classifyDriverFailure(context, error) {
  const isNull = context.sameValue(error, context.null);
  const message =
    isNull || context.typeof(error) !== 'object'
      ? undefined
      : context.getProp(error, 'message').consume((handle) => (context.typeof(handle) === 'string' ? context.getString(handle) : undefined));
  if (isNull || message === 'out of memory')
    return { status: 'error', error: 'memory', message: 'the sandbox could not start: its memory limit is too small for the driver' };
  if (message === 'stack overflow')
    return { status: 'error', error: 'memory', message: 'the sandbox could not start: its stack limit is too small for the driver' };
  if (message === 'interrupted')
    return { status: 'error', error: 'timeout', message: 'the sandbox could not start: the driver was interrupted by the deadline' };
  return crashed(`the sandbox could not start: ${message ?? 'the driver failed'}`.slice(0, MAX_MESSAGE));
}

/** @param {string} message @returns {SandboxAnswer} */
function crashed(message) {
  return { status: 'error', error: 'crashed', message };
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
  return crashed('the sandbox failed unexpectedly');
}

/** @param {string} value @returns {SandboxAnswer} */
function readDriverResult(value) {
  if (value.startsWith('R') && /^[01]*$/.test(value.slice(1))) return { status: 'ok', flags: value.slice(1) };
  if (value.startsWith('I')) return { status: 'error', error: 'invalid-function', message: value.slice(1, 1 + MAX_MESSAGE) };
  return crashed('the sandbox answered something unexpected');
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
/**
 * Every page of that memory is touched once now, before the worker is ready: the operating system then
 * commits it here rather than during the first job that allocates (a first allocation loop to the
 * limit took 465 ms of page faults on the shared build machine, past the deadline and the watchdog,
 * against 11 ms once committed). It costs the memory's size in resident memory per worker from the
 * start, which the first large job would have committed anyway (WebAssembly memory never shrinks).
 * Each touched byte keeps its value (adding 0): QuickJS's static data is already there.
 */
const bytes = new Uint8Array(wasmMemory.buffer);
for (let at = 0; at < bytes.length; at += 4096) Atomics.add(bytes, at, 0); // a write of the same value

/** A few entries before the first job, so that compiling their code (WebAssembly and JavaScript) is not on any job's clock. */
const WARM_UP_RUNS = 3;
const WARM_UP_JOB = {
  source: 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }',
  webhookJson: JSON.stringify({ headers: { 'content-type': 'application/json' }, query: {}, body: { room: 'hall', readings: [1, 2, 3] } }),
  dataJson: JSON.stringify([{ room: 'hall' }, { room: 'attic' }, null]),
};
for (let run = 0; run < WARM_UP_RUNS; run++) runEntry(prepareSandbox(quickjs, limits), limits, WARM_UP_JOB);
/** The sandbox the next job runs in, made after the previous job was answered. */
let next = prepareSandbox(quickjs, limits);

port.on('message', (/** @type {{ id?: unknown; job?: unknown; progress?: unknown }} */ message) => {
  const id = message?.id;
  markBegun(message?.progress, id);
  const answer = (/** @type {SandboxAnswer} */ answer) => {
    markAnswered(message?.progress, id);
    port.postMessage({ type: 'answer', id, answer });
  };
  if (!isJob(message?.job)) return answer(crashed('malformed sandbox job'));
  try {
    answer(runEntry(next, limits, message.job));
    // Off the critical path: the answer is posted; the next job finds its sandbox ready.
    next = prepareSandbox(quickjs, limits);
  } catch {
    // An exception from the WebAssembly host itself (e.g. its native stack) may leave QuickJS's memory
    // inconsistent: answer, then end this worker; the pool starts a fresh one.
    answer(crashed('the sandbox host failed; worker replaced'));
    process.exit(1);
  }
});
port.postMessage({ type: 'ready' });
