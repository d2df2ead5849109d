/**
 * The webhook history of a browser host profile read back as a restart reads it, in a process of its
 * own (a start's process holds nothing else yet), then, after one message more, closed as a quit closes it
 * (writing its checkpoint again):
 * prints `{ readMs, entries, firstSearchMs, closeMs }` as JSON.
 * Run by inspector-history.ts: `node --import tsx test/bench/history-read-back.ts <profile>`.
 */
import { performance } from 'node:perf_hooks';
import { FILTERS, profileHistory } from './inspector-history';

const profile = process.argv[2];
if (!profile) throw new Error('usage: history-read-back.ts <profile>');
const reading = performance.now();
const history = profileHistory(profile);
await history.ready;
const readMs = performance.now() - reading;
const entries = history.inspector.usage().entries;
// At once, while the restored entries' parts are still being read in the background (history-checkpoint.ts).
const searching = performance.now();
history.inspector.snapshot({ limit: 200, filter: FILTERS['key path == number, 1 match'] });
const firstSearchMs = performance.now() - searching;
// Quitting after use: a message came in, so the checkpoint is written again (with nothing new it is kept).
history.inspector.delivered('wh_bench', { id: `after-restart-${Date.now()}`, receivedAt: new Date().toISOString(), headers: {}, query: {}, rawBody: '' });
const closing = performance.now();
await history.close();
const closeMs = performance.now() - closing;
console.log(JSON.stringify({ readMs, entries, firstSearchMs, closeMs }));
