/**
 * Test worker for worker-pool.test.ts: speaks the pool's protocol and misbehaves on request.
 * job.mode: 'echo' answers the job back; 'late' too, after waiting job.ms before it begins; 'spin' never
 * answers (a busy thread); 'exit' ends the worker. It writes when it begins and answers (job-progress.mjs).
 * If workerData.portCell (an Int32Array on a SharedArrayBuffer) is given, the worker first listens on a
 * TCP port and stores it there, so a test can see from outside whether the worker still exists.
 */
import { createServer } from 'node:net';
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import { markAnswered, markBegun } from '../../../../../../services/forwarder/legacy/job-progress.mjs';

const portCell = workerData?.portCell;
if (portCell) {
  const server = createServer((socket) => socket.end());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  Atomics.store(portCell, 0, server.address().port);
  Atomics.notify(portCell, 0);
}

parentPort.on('message', ({ id, job, progress }) => {
  // 'late' waits before it begins the job (a worker still preparing, or without a CPU); the watchdog counts from when it begins.
  if (job.mode === 'late') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, job.ms);
  markBegun(progress, id);
  if (job.mode === 'spin') for (;;);
  if (job.mode === 'exit') process.exit(3);
  markAnswered(progress, id);
  parentPort.postMessage({ type: 'answer', id, answer: job });
});
parentPort.postMessage({ type: 'ready' });
