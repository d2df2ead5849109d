/**
 * Child-process check that the runner works under tsx (legacy-runner.test.ts): runs one legacy
 * function and prints the outcome as one JSON line.
 */
import { createLegacyRunner } from '../../../../../../services/forwarder/legacy/legacy-runner';

const runner = createLegacyRunner({ workers: 1 });
const outcome = await runner.run('(hubData, webhookData) => hubData.room === webhookData.body.room', { headers: {}, query: {}, body: { room: 'hall' } }, [
  { listenerId: 'hall-hub', data: { room: 'hall' } },
  { listenerId: 'attic-hub', data: { room: 'attic' } },
]);
await runner.close();
process.stdout.write(`${JSON.stringify(outcome)}\n`);
