import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HubRecord } from '../../../../../common/wire';
import type { PingOutcome } from '../../../../../main/core/hubs/hub-client';
import { type Ping, type Selection, type SelectOptions, candidateRoutes, createParallelPingSelector } from '../../../../../main/core/hubs/route-selection';

const SECURE = 'https://lan.test';
const LAN = 'http://lan.test';
const REMOTE = 'https://remote.test';
const DEADLINE_MS = 2_000;

const HUB: HubRecord = { _id: 'hub-1', name: 'Home', platform: 'local', localUrlSecure: SECURE, localUrl: LAN, remoteUrl: REMOTE };
const IS_HUB: PingOutcome = { kind: 'hub' };
const REFUSED: PingOutcome = { kind: 'failed', detail: 'ECONNREFUSED' };

/** How one address behaves: answers `answer` after `after` ms of fake time, or never (a listener that hangs). */
type Script = { after: number; answer: PingOutcome } | 'silent';

/** Fake pings driven by fake time; records which probes saw their signal abort, and when. */
function fakeNetwork(scripts: Record<string, Script>) {
  const aborted = new Map<string, number>();
  const ping: Ping = ({ baseUrl: url }, hub, signal) =>
    new Promise((resolve) => {
      expect(hub._id).toBe('hub-1');
      signal.addEventListener('abort', () => {
        aborted.set(url, Date.now());
        resolve({ kind: 'failed', detail: 'aborted' }); // as the real ping does; the selector must ignore it
      });
      const script = scripts[url] ?? 'silent';
      if (script !== 'silent') setTimeout(() => resolve(script.answer), script.after);
    });
  return { ping, aborted };
}

/** Starts a selection at fake time 0 and records when (in fake ms) it resolved and every better route reported. */
function run(scripts: Record<string, Script>, hub: HubRecord = HUB, options: Omit<SelectOptions, 'onBetter'> = {}) {
  const network = fakeNetwork(scripts);
  const result: { at?: number; selection?: Selection | null; better: { at: number; selection: Selection }[] } = { better: [] };
  void createParallelPingSelector(network.ping, { deadlineMs: DEADLINE_MS })
    .select(hub, { ...options, onBetter: (selection) => result.better.push({ at: Date.now(), selection }) })
    .then((selection) => Object.assign(result, { at: Date.now(), selection }));
  return { ...network, result };
}

const kindOf = (selection: Selection | null | undefined) => selection?.route.kind ?? null;
const statuses = (selection: Selection | null | undefined) => selection?.outcomes.map(({ route, outcome }) => [route.kind, outcome.status]);

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('route selection', () => {
  it('takes the secure LAN route over the others when all answer together', async () => {
    const { result } = run({ [SECURE]: { after: 10, answer: IS_HUB }, [LAN]: { after: 10, answer: IS_HUB }, [REMOTE]: { after: 10, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(10);
    expect(result.at).toBe(10);
    expect(result.selection).toMatchObject({ route: { kind: 'local-secure', baseUrl: SECURE }, rttMs: 10 });
  });

  it('waits for a secure route that answers late but within the grace', async () => {
    const { result } = run({ [SECURE]: { after: 150, answer: IS_HUB }, [LAN]: { after: 5, answer: IS_HUB }, [REMOTE]: { after: 5, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(149);
    expect(result.selection).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(kindOf(result.selection)).toBe('local-secure');
    expect(result.at).toBe(150);
  });

  it('never takes the plain LAN route on a grace: it waits until the secure one has failed (here, its deadline)', async () => {
    const { result } = run({ [SECURE]: 'silent', [LAN]: { after: 10, answer: IS_HUB }, [REMOTE]: 'silent' });
    await vi.advanceTimersByTimeAsync(DEADLINE_MS - 1);
    expect(result.selection).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result.at).toBe(DEADLINE_MS);
    expect(result.selection).toMatchObject({ route: { kind: 'local' }, rttMs: 10 });
    expect(statuses(result.selection)).toEqual([
      ['local-secure', 'timed-out'],
      ['local', 'answered'],
      ['remote', 'aborted'],
    ]);
  });

  it('takes the remote route after its grace while the secure LAN route is silent, even when the plain one answered', async () => {
    const { result } = run({ [SECURE]: 'silent', [LAN]: { after: 10, answer: IS_HUB }, [REMOTE]: { after: 50, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(200);
    expect(result.at).toBe(200);
    expect(kindOf(result.selection)).toBe('remote');
    expect(statuses(result.selection)).toEqual([
      ['local-secure', 'pending'],
      ['local', 'answered'],
      ['remote', 'answered'],
    ]);
  });

  it('takes the plain LAN route as soon as it answers when the hub has no secure one', async () => {
    const { result } = run({ [LAN]: { after: 10, answer: IS_HUB }, [REMOTE]: { after: 5, answer: IS_HUB } }, { ...HUB, localUrlSecure: null });
    await vi.advanceTimersByTimeAsync(10);
    expect(result.at).toBe(10);
    expect(kindOf(result.selection)).toBe('local');
  });

  it('takes the plain LAN route at once when the secure one failed fast', async () => {
    const { result } = run({ [SECURE]: { after: 3, answer: REFUSED }, [LAN]: { after: 10, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(10);
    expect(result.at).toBe(10);
    expect(statuses(result.selection)).toEqual([
      ['local-secure', 'refused'],
      ['local', 'answered'],
      ['remote', 'aborted'],
    ]);
  });

  it('goes remote without waiting for LAN deadlines when both LAN routes fail fast', async () => {
    const { result } = run({ [SECURE]: { after: 5, answer: REFUSED }, [LAN]: { after: 8, answer: REFUSED }, [REMOTE]: { after: 160, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(160);
    expect(result.at).toBe(160);
    expect(result.selection).toMatchObject({ route: { kind: 'remote' }, rttMs: 160 });
  });

  it('goes remote after the remote grace when both LAN routes hang, well before their deadline', async () => {
    const { result } = run({ [SECURE]: 'silent', [LAN]: 'silent', [REMOTE]: { after: 160, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(199);
    expect(result.selection).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result.at).toBe(200);
    expect(kindOf(result.selection)).toBe('remote');
  });

  it('does not accept an address that answers as another hub', async () => {
    const { result } = run({ [SECURE]: { after: 5, answer: { kind: 'wrong-hub' } }, [LAN]: { after: 7, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(7);
    expect(kindOf(result.selection)).toBe('local');
    expect(statuses(result.selection)?.[0]).toEqual(['local-secure', 'wrong-hub']);
  });

  it('resolves null when the only addresses belong to other hubs', async () => {
    const other: Script = { after: 5, answer: { kind: 'wrong-hub' } };
    const { result } = run({ [SECURE]: other, [LAN]: other, [REMOTE]: other });
    await vi.advanceTimersByTimeAsync(5);
    expect(result).toMatchObject({ at: 5, selection: null });
  });

  it('reports a better route that answers later, and stops probing once the best one did', async () => {
    const { result, aborted } = run({ [SECURE]: { after: 900, answer: IS_HUB }, [LAN]: 'silent', [REMOTE]: { after: 100, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(500);
    expect(kindOf(result.selection)).toBe('remote');
    await vi.advanceTimersByTimeAsync(400);
    expect(result.better.map(({ at, selection }) => [at, selection.route.kind, selection.rttMs])).toEqual([[900, 'local-secure', 900]]);
    expect(aborted.get(LAN)).toBe(900); // the plain LAN route can no longer matter
    expect(vi.getTimerCount()).toBe(0); // no deadline or grace timer left behind
  });

  it('reports nothing better when the better routes time out', async () => {
    const { result, aborted } = run({ [SECURE]: 'silent', [LAN]: { after: 10, answer: IS_HUB } });
    await vi.advanceTimersByTimeAsync(DEADLINE_MS);
    expect(kindOf(result.selection)).toBe('local');
    expect(result.better).toEqual([]);
    expect(aborted.get(SECURE)).toBe(DEADLINE_MS);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts every other probe once the secure route is chosen', async () => {
    const { result, aborted } = run({ [SECURE]: { after: 20, answer: IS_HUB }, [LAN]: 'silent', [REMOTE]: 'silent' });
    await vi.advanceTimersByTimeAsync(20);
    expect(kindOf(result.selection)).toBe('local-secure');
    expect([...aborted]).toEqual([
      [LAN, 20],
      [REMOTE, 20],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops every probe and resolves null when the caller cancels', async () => {
    const cancel = new AbortController();
    const { result, aborted } = run({ [SECURE]: 'silent', [LAN]: 'silent', [REMOTE]: 'silent' }, HUB, { signal: cancel.signal });
    await vi.advanceTimersByTimeAsync(100);
    cancel.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(result).toMatchObject({ at: 100, selection: null });
    expect([...aborted.keys()].sort()).toEqual([LAN, REMOTE, SECURE].sort());
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops looking for a better route when the caller cancels after the choice', async () => {
    const cancel = new AbortController();
    const { result, aborted } = run(
      { [SECURE]: { after: 900, answer: IS_HUB }, [LAN]: { after: 10, answer: IS_HUB }, [REMOTE]: { after: 100, answer: IS_HUB } },
      HUB,
      { signal: cancel.signal },
    );
    await vi.advanceTimersByTimeAsync(250);
    expect(kindOf(result.selection)).toBe('remote');
    cancel.abort();
    await vi.advanceTimersByTimeAsync(DEADLINE_MS);
    expect(aborted.get(SECURE)).toBe(250);
    expect(result.better).toEqual([]);
  });

  it('resolves null after the deadline when nothing answers, marking every route timed out', async () => {
    const { result, aborted } = run({ [SECURE]: 'silent', [LAN]: 'silent', [REMOTE]: 'silent' });
    await vi.advanceTimersByTimeAsync(DEADLINE_MS - 1);
    expect(result.selection).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toMatchObject({ at: DEADLINE_MS, selection: null });
    expect(aborted.size).toBe(3);
  });

  it('treats a ping that throws as a refused route', async () => {
    const select = createParallelPingSelector(async ({ baseUrl: url }) => {
      if (url === SECURE) throw new Error('certificate not trusted');
      return IS_HUB;
    });
    const selection = await select.select(HUB);
    expect(kindOf(selection)).toBe('local');
    expect(selection?.outcomes[0]?.outcome).toEqual({ status: 'refused', detail: 'certificate not trusted' });
  });

  it('resolves null at once for a hub without usable addresses', async () => {
    const ping = vi.fn<Ping>();
    const hub = { ...HUB, localUrlSecure: 'http://calls-itself-secure.test', localUrl: 'ftp://lan.test', remoteUrl: 'not a url' };
    expect(candidateRoutes(hub)).toEqual([]);
    expect(await createParallelPingSelector(ping).select(hub)).toBeNull();
    expect(ping).not.toHaveBeenCalled();
  });

  it('takes a remote-only hub as soon as it answers', async () => {
    const { result } = run({ [REMOTE]: { after: 90, answer: IS_HUB } }, { ...HUB, platform: 'cloud', localUrlSecure: null, localUrl: null });
    await vi.advanceTimersByTimeAsync(90);
    expect(result.at).toBe(90);
    expect(kindOf(result.selection)).toBe('remote');
  });

  it('refuses a remote grace longer than 250 ms or negative', () => {
    expect(() => createParallelPingSelector(vi.fn<Ping>(), { remoteGraceMs: 251 })).toThrow(RangeError);
    expect(() => createParallelPingSelector(vi.fn<Ping>(), { remoteGraceMs: -1 })).toThrow(RangeError);
  });
});
