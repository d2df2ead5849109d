/**
 * As docs/architecture.md, "Control and the open hub" says: the app comes back by itself. A core with Home open and live, against the real stack:
 * - the route it uses dies and another appears (the hub moves to new ports): live again, with a new
 *   snapshot, without any call from the user;
 * - the machine's network changes (an interface appears): the open hub is reopened on a freshly chosen
 *   route and read again;
 * - the clock jumps as after sleep: the same.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../common/ipc-contract';
import type { HubdeskCore } from '../../../main/core/host/hubdesk-core';
import { type RunningStack, startStack } from '../../../services/stack';
import { signedInStackCore } from '../../support/stack-core';
import { nextEvent } from '../../support/next-event';

let stack: RunningStack;
const cores: HubdeskCore[] = [];

const loginLog: (() => void)[] = [];

beforeAll(async () => {
  stack = await startStack({
    remoteLatencyMs: 0,
    requestLog: ({ method, path }) => {
      if (method === 'POST' && path === '/api/manager/users/login') for (const count of loginLog) count();
    },
  });
});
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});
afterAll(async () => {
  await stack?.close();
});

const home = () => stack.info.hubs.find((hub) => hub.name === 'Home')!;

const isLive = (status: EventPayload<'hubs.live'>) => status.hubId === home().id && status.state.kind === 'live';
const loadedHome = (snapshot: EventPayload<'hubs.snapshot'>) => snapshot.hubId === home().id && snapshot.status === 'loaded';

async function liveHome(core: HubdeskCore): Promise<void> {
  const live = nextEvent(core, 'hubs.live', isLive);
  await core.handlers['hubs.open'](home().id);
  await live;
}

describe('the open hub comes back by itself', () => {
  it('when its route dies and a new one appears: live again within 5 s, read afresh, with no call from the user', async () => {
    const core = await signedInStackCore(stack.info);
    cores.push(core);
    await liveHome(core);
    const before = home().localUrl;

    const snapshot = nextEvent(core, 'hubs.snapshot', loadedHome);
    const liveAgain = nextEvent(core, 'hubs.live', (status) => status.hubId === home().id && status.state.kind === 'reconnecting').then(() =>
      nextEvent(core, 'hubs.live', isLive),
    );
    await stack.relocateHub(home().id);
    const back = Date.now();
    expect(home().localUrl).not.toBe(before);
    await liveAgain;
    expect(Date.now() - back).toBeLessThan(5_000);
    expect((await snapshot).status).toBe('loaded');
  });

  it("when the machine's network changes: routes are chosen again, the hub is reopened and read afresh", async () => {
    let addresses = [{ address: '192.0.2.10', family: 'IPv4', internal: false }];
    const logins = countLogins();
    const core = await signedInStackCore(stack.info, {
      networkInterfaces: () => ({ lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }], eth0: addresses }),
    });
    cores.push(core);
    await liveHome(core);
    const loginsBefore = logins();

    const snapshot = nextEvent(core, 'hubs.snapshot', loadedHome);
    const liveAgain = nextEvent(core, 'hubs.live', (status) => status.hubId === home().id && status.state.kind === 'connecting').then(() =>
      nextEvent(core, 'hubs.live', isLive),
    );
    addresses = [{ address: '198.51.100.7', family: 'IPv4', internal: false }]; // joined another network
    await liveAgain;
    expect((await snapshot).status).toBe('loaded');
    expect(logins()).toBe(loginsBefore + 1); // a new session, on a route chosen after the change
  });

  it('when the clock jumps as after sleep: the same, with no call from the user', async () => {
    let slept = 0;
    const core = await signedInStackCore(stack.info, { clock: { now: () => Date.now() + slept } });
    cores.push(core);
    await liveHome(core);

    const snapshot = nextEvent(core, 'hubs.snapshot', loadedHome);
    const liveAgain = nextEvent(core, 'hubs.live', (status) => status.hubId === home().id && status.state.kind === 'connecting').then(() =>
      nextEvent(core, 'hubs.live', isLive),
    );
    slept = 3_600_000; // an hour asleep: timers did not run, the clock moved on
    await liveAgain;
    expect((await snapshot).status).toBe('loaded');
  });
});

/** How many hub logins the stack has seen so far, as a function to call again later. */
function countLogins(): () => number {
  let count = 0;
  loginLog.push(() => count++);
  return () => count;
}
