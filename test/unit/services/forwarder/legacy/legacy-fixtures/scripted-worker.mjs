/**
 * Test worker for worker-pool.test.ts: speaks the pool's protocol and misbehaves on request.
 * job.mode: 'echo' answers the job back; 'spin' never answers (a busy thread); 'exit' ends the worker.
 * If workerData.portCell (an Int32Array on a SharedArrayBuffer) is given, the worker first listens on a
 * TCP port and stores it there, so a test can see from outside whether the worker still exists.
 */
import { createServer } from 'node:net';
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';

const portCell = workerData?.portCell;
if (portCell) {
  const server = createServer((socket) => socket.end());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  Atomics.store(portCell, 0, server.address().port);
  Atomics.notify(portCell, 0);
}

parentPort.on('message', ({ id, job }) => {
  if (job.mode === 'spin') for (;;);
  if (job.mode === 'exit') process.exit(3);
  parentPort.postMessage({ type: 'answer', id, answer: job });
});
parentPort.postMessage({ type: 'ready' });
