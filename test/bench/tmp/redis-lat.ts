// Experiment (not committed): floor vs forwarder Redis latency, alternated, with the forwarder's 202 times too.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startProgram } from '../../e2e/support/processes';
import { compiledServer } from '../compiled-servers';
import { startTestRedis } from '../../support/redis-server';
import { TestListener } from '../../support/webhook-listener';

const N = Number(process.env.N ?? 5000);
const PAIRS = Number(process.env.PAIRS ?? 3);
const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
async function paced(rate: number, total: number, send: (seq: number) => void) {
  let seq = 0; const started = performance.now();
  await new Promise<void>((resolve) => { const tick = () => { const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate)); while (seq < due) send(seq++); if (seq < total) setTimeout(tick, 1); else resolve(); }; tick(); });
}
function post(agent: Agent, url: string, value: unknown): Promise<number> {
  const body = JSON.stringify(value); const start = performance.now();
  return new Promise((resolve) => { const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode === 202 ? performance.now() - start : NaN)); }); req.on('error', () => resolve(NaN)); req.end(body); });
}
const redis = await startTestRedis();
const floor = startProgram(await compiledServer('bare-server'), [], { REDIS_URL: redis.url });
const floorUrl = (JSON.parse(`{"url"${await floor.line('{"url"')}`) as { url: string }).url;
const fwd = startProgram(await compiledServer('forwarder-server'), [], { REDIS_URL: redis.url, NODE_OPTIONS: process.env.FWD_NODE_OPTIONS ?? '' });
const info = JSON.parse(`{"url"${await fwd.line('{"url"')}`) as { url: string; webhookId: string; secret: string };
const intake = `${info.url}/webhook/${info.webhookId}`;
const probe = await TestListener.connect({ forwarderUrl: info.url, webhookId: info.webhookId, secret: info.secret, listenerId: 'p', data: { $key: 'p' } });
const sentAt = new Map<number, number>(); let lat: number[] = [];
probe.socket.on('message', (d: Buffer) => { const f = JSON.parse(d.toString()); if (f.type !== 'message') return; const s = sentAt.get(f.message.body.seq); if (s !== undefined) lat.push(performance.now() - s); });
const floorRun = async () => { const a = new Agent({ keepAlive: true, maxSockets: 64 }); const w: Promise<number>[] = []; await paced(1000, 1000, (s) => w.push(post(a, floorUrl, { device: { id: 'floor' }, seq: -s }))); await Promise.all(w); const x: Promise<number>[] = []; await paced(1000, N, (s) => x.push(post(a, floorUrl, { device: { id: 'floor' }, seq: s }))); const r = (await Promise.all(x)).sort((p, q) => p - q); a.destroy(); return r; };
const fwdRun = async () => { const a = new Agent({ keepAlive: true, maxSockets: 64 }); const w: Promise<number>[] = []; await paced(1000, 1000, (s) => w.push(post(a, intake, { device: { id: 'p' }, seq: -1 - s }))); await Promise.all(w); lat = []; sentAt.clear(); const x: Promise<number>[] = []; await paced(1000, N, (s) => { sentAt.set(s, performance.now()); x.push(post(a, intake, { device: { id: 'p' }, seq: s })); }); const answers = (await Promise.all(x)).sort((p, q) => p - q); const dl = performance.now() + 5000; while (lat.length < N && performance.now() < dl) await new Promise((r) => setTimeout(r, 20)); a.destroy(); return { answers, delivered: [...lat].sort((p, q) => p - q) }; };
const f: number[][] = [], d: number[][] = [], a: number[][] = [];
for (let i = 0; i < PAIRS; i++) { f.push(await floorRun()); const r = await fwdRun(); d.push(r.delivered); a.push(r.answers); console.log(`pair ${i}: floor p50 ${pct(f.at(-1)!, 50).toFixed(2)} p99 ${pct(f.at(-1)!, 99).toFixed(2)} | fwd 202 p50 ${pct(r.answers, 50).toFixed(2)} p99 ${pct(r.answers, 99).toFixed(2)} | delivered p50 ${pct(r.delivered, 50).toFixed(2)} p99 ${pct(r.delivered, 99).toFixed(2)} (${r.delivered.length})`); }
const all = (x: number[][]) => x.flat().sort((p, q) => p - q);
const F = all(f), D = all(d), A = all(a);
console.log(`POOLED floor p50 ${pct(F, 50).toFixed(2)} p99 ${pct(F, 99).toFixed(2)} | fwd202 p50 ${pct(A, 50).toFixed(2)} p99 ${pct(A, 99).toFixed(2)} | delivered p50 ${pct(D, 50).toFixed(2)} p99 ${pct(D, 99).toFixed(2)} | ratio p50 ${(pct(D, 50) / pct(F, 50)).toFixed(2)} p99 ${(pct(D, 99) / pct(F, 99)).toFixed(2)}`);
await probe.close(); await fwd.stop(); await floor.stop(); await redis.stop(); process.exit(0);
