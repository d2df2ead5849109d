/**
 * The hub of the insights-flood bench (docs/benchmarks.md, "One session's insights flood") in a process of
 * its own, so the flood's client and the timed client do not share its event loop: a cloud and a hub on
 * the demo home (simulation on), and two sessions, the attacker's and the prober's. Prints one JSON line
 * `{"url", "attacker", "prober"}`; the n-th SIGUSR2 prints its turns since the last one
 * (`loop <n> {"p99", "max", "cpuMax"}`, ms): how late its event loop ran (p99, max: the longest turns as
 * the clock saw them, time the process was not scheduled included) and the most CPU time the process
 * used between two ticks 5 ms apart (`cpuMax`: its own longest turn, whatever the machine's load); SIGTERM stops it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDemoHome } from '../../services/hub/demo-home';
import { startHub } from '../../services/hub/hub';
import { openInsightsSession, startInsightsCloud } from './insights';
import { ONE_ADDRESS_FLOOD_LIMITS } from '../support/flood';

const cloud = await startInsightsCloud();
// The insights flood comes from one address standing for a session used from many: the per-address
// limits (docs/security.md, "One client's share") would refuse it before the insights bound is reached.
const hub = await startHub({
  id: 'h1',
  name: 'Home',
  cloudIssuer: cloud.issuer,
  cloudPublicJwk: cloud.publicJwk,
  home: createDemoHome('home'),
  simulate: true,
  connectionLimits: ONE_ADDRESS_FLOOD_LIMITS,
});
const [attacker, prober] = await Promise.all([openInsightsSession(cloud.url, hub.url), openInsightsSession(cloud.url, hub.url)]);
process.stdout.write(`${JSON.stringify({ url: hub.url, attacker, prober })}\n`);
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let cpuAt = process.cpuUsage();
let cpuMax = 0;
setInterval(() => {
  const used = process.cpuUsage(cpuAt);
  cpuAt = process.cpuUsage();
  cpuMax = Math.max(cpuMax, (used.user + used.system) / 1000);
}, 5).unref();
let asked = 0;
process.on('SIGUSR2', () => {
  process.stdout.write(`loop ${++asked} ${JSON.stringify({ p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, cpuMax })}\n`);
  delay.reset();
  cpuMax = 0;
});
process.once('SIGTERM', () => void Promise.all([hub.close(), cloud.close()]).then(() => process.exit(0)));
