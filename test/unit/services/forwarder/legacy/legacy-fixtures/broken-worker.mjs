// Test worker for worker-pool.test.ts: fails while starting, before it is ever ready.
throw new Error('this worker cannot start');
