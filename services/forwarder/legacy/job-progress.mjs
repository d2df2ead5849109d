// @ts-check
/**
 * The worker's side of the pool's watchdog (worker-pool.ts, "What the watchdog measures"): with each job
 * the pool sends `progress`, a BigInt64Array on a SharedArrayBuffer, where the worker writes when it
 * begins the job and that it answered it. The pool's watchdog reads it: it counts from when the worker
 * began the job (not from when the main thread posted it), and never replaces a worker whose answer is
 * already on its way to a late main thread. A job without `progress` (a worker started by hand) is run
 * the same way.
 *
 * Layout (shared with worker-pool.ts): [0] id of the job begun, [1] when (Date.now()), [2] id of the job answered.
 */

/** @param {unknown} progress @returns {progress is BigInt64Array} */
function isProgress(progress) {
  return progress instanceof BigInt64Array && progress.length >= 3 && progress.buffer instanceof SharedArrayBuffer;
}

/** @param {unknown} progress @param {unknown} id */
export function markBegun(progress, id) {
  if (!isProgress(progress) || typeof id !== 'number') return;
  Atomics.store(progress, 1, BigInt(Date.now()));
  Atomics.store(progress, 0, BigInt(id)); // after the time: whoever reads this id reads that time
}

/** @param {unknown} progress @param {unknown} id */
export function markAnswered(progress, id) {
  if (isProgress(progress) && typeof id === 'number') Atomics.store(progress, 2, BigInt(id));
}
