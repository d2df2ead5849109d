import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLegacyFixtures } from '../../../../../services/forwarder/legacy/legacy-fixtures';
import {
  createLegacyRunner,
  type LegacyOutcome,
  type LegacyRegistration,
  type LegacyRunner,
  type WebhookData,
} from '../../../../../services/forwarder/legacy/legacy-runner';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

const BY_ROOM = 'function (hubData, webhookData) { return hubData.room === webhookData.body.room; }';
const HALL: WebhookData = { headers: {}, query: {}, body: { room: 'hall' } };
const ROOMS: LegacyRegistration[] = [
  { listenerId: 'hall-hub', data: { room: 'hall' } },
  { listenerId: 'attic-hub', data: { room: 'attic' } },
  { listenerId: 'hall-hub-2', data: { room: 'hall' } },
];

function webhook(body: unknown, headers: Record<string, string> = {}): WebhookData {
  return { headers, query: {}, body };
}

let runner: LegacyRunner;
beforeAll(() => {
  runner = createLegacyRunner({ workers: 2 });
});
afterAll(() => runner.close());

async function expectServedAfterwards(): Promise<void> {
  await expect(runner.run(BY_ROOM, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: ['hall-hub', 'hall-hub-2'] });
}

describe('legacy runner: matching', () => {
  it('returns the listeners whose call returned true, in registration order', async () => {
    await expect(runner.run(BY_ROOM, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: ['hall-hub', 'hall-hub-2'] });
    await expect(runner.run('(h, w) => h.room === w.body.room', webhook({ room: 'attic' }), ROOMS)).resolves.toEqual({
      ok: true,
      matched: ['attic-hub'],
    });
  });

  it('counts only exactly true: truthy values and promises are a no', async () => {
    const source = 'function (h) { return h.answer; }';
    const registrations = [true, 1, 'true', {}, [true], null].map((answer, index) => ({ listenerId: `l${index}`, data: { answer } }));
    await expect(runner.run(source, HALL, registrations)).resolves.toEqual({ ok: true, matched: ['l0'] });
    await expect(runner.run('async function () { return true; }', HALL, ROOMS)).resolves.toEqual({ ok: true, matched: [] });
  });

  it('treats a throw for one registration as a no for that registration only', async () => {
    const source = 'function (h) { if (h.room === "attic") throw new Error("no attic"); return true; }';
    await expect(runner.run(source, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: ['hall-hub', 'hall-hub-2'] });
  });

  it('passes headers, query and body, and missing data as null', async () => {
    const source = 'function (h, w) { return h === null && w.headers["x-a"] === "1" && w.query.q === "2" && w.body === "text"; }';
    const data = { headers: { 'x-a': '1' }, query: { q: '2' }, body: 'text' };
    await expect(runner.run(source, data, [{ listenerId: 'x', data: undefined }])).resolves.toEqual({ ok: true, matched: ['x'] });
  });

  it('answers without entering the sandbox when nothing is registered', async () => {
    await expect(runner.run('not even a function', HALL, [])).resolves.toEqual({ ok: true, matched: [] });
  });

  it('runs the seeded fixtures as the stack would use them', async () => {
    const fixtures = Object.fromEntries((await loadLegacyFixtures()).map((f) => [f.name, f.source]));
    expect(Object.keys(fixtures).sort()).toEqual(['match-by-room', 'match-device-list', 'match-owner-header']);

    const rooms = [
      { listenerId: 'a', data: { room: 'hall' } },
      { listenerId: 'b', data: { room: 'Kitchen' } },
      { listenerId: 'c', data: {} },
    ];
    await expect(runner.run(fixtures['match-by-room']!, webhook({ room: ' Hall ', event: 'ring' }), rooms)).resolves.toEqual({
      ok: true,
      matched: ['a'],
    });

    const owners = [
      { listenerId: 'a', data: { accounts: ['acc-1001', 'acc-1002'] } },
      { listenerId: 'b', data: { accounts: ['acc-2001'] } },
      { listenerId: 'c', data: { accounts: 'acc-1002' } },
    ];
    await expect(runner.run(fixtures['match-owner-header']!, webhook({ kWh: 3.2 }, { 'x-account-id': 'acc-1002' }), owners)).resolves.toEqual({
      ok: true,
      matched: ['a'],
    });

    const devices = [
      { listenerId: 'a', data: { deviceIds: ['t-17', 't-18'] } },
      { listenerId: 'b', data: { deviceIds: ['t-40'] } },
      { listenerId: 'c', data: { deviceIds: ['t-99'] } },
    ];
    const readings = webhook({ readings: [{ deviceId: 't-40', celsius: 19 }, null, { deviceId: 't-18', celsius: 21.5 }] });
    await expect(runner.run(fixtures['match-device-list']!, readings, devices)).resolves.toEqual({ ok: true, matched: ['a', 'b'] });
  });
});

describe('legacy runner: one sandbox entry per request', () => {
  it('evaluates the function once and calls it for every registration in one context', async () => {
    // Each call sees the state the previous calls left: proof they share one entry, in order.
    const source = `(function () {
      globalThis.evaluations = (globalThis.evaluations || 0) + 1;
      return function (h) {
        globalThis.calls = (globalThis.calls || 0) + 1;
        return globalThis.evaluations === 1 && globalThis.calls === h.expected;
      };
    })()`;
    const registrations = Array.from({ length: 500 }, (_, index) => ({ listenerId: `l${index}`, data: { expected: index + 1 } }));
    const first = await runner.run(source, HALL, registrations);
    expect(first).toEqual({ ok: true, matched: registrations.map((r) => r.listenerId) });
    // A new request starts from a fresh context: nothing is left from the previous one.
    await expect(runner.run(source, HALL, registrations)).resolves.toEqual(first);
  });

  it('freezes the webhook so one call cannot change what the next call sees', async () => {
    const source = 'function (h, w) { w.body.room = "changed"; w.extra = 1; return w.body.room === "hall" && w.extra === undefined; }';
    await expect(runner.run(source, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: ['hall-hub', 'attic-hub', 'hall-hub-2'] });
  });

  it('cannot forge results by replacing built-ins', async () => {
    const source = `function () {
      JSON.parse = function () { return [1, 1, 1]; };
      JSON.stringify = function () { return '"R111"'; };
      Reflect.apply = function () { return true; };
      Function.prototype.call = function () { return true; };
      Array.prototype.push = function () { return 0; };
      Object.freeze = function (o) { return o; };
      return false;
    }`;
    await expect(runner.run(source, HALL, ROOMS)).resolves.toEqual({ ok: true, matched: [] });
  });
});

describe('legacy runner: limits', () => {
  it('stops an infinite loop at the deadline, and the next run succeeds', async () => {
    await expect(runner.run('function () { while (true) {} }', HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'timeout' });
    await expect(runner.run('function () { try { for (;;) {} } catch (e) { return true; } }', HALL, ROOMS)).resolves.toMatchObject({
      ok: false,
      error: 'timeout',
    });
    await expectServedAfterwards();
  });

  it('contains a memory bomb, and the next run succeeds', async () => {
    const bomb = 'function () { var hoard = []; while (true) hoard.push(new ArrayBuffer(4 << 20)); }';
    await expect(runner.run(bomb, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'memory' });
    const single = 'function () { return new ArrayBuffer(256 * 1024 * 1024).byteLength > 0; }';
    await expect(runner.run(single, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'memory' });
    await expectServedAfterwards();
  });

  it('ends slow memory bombs by memory, deadline or watchdog, and the next run succeeds', async () => {
    const bombs = [
      'function () { var hoard = []; while (true) hoard.push({ n: hoard.length }); }',
      'function () { var hoard = []; while (true) hoard.push("x".repeat(1 << 20)); }',
      'function () { var hoard = []; try { while (true) hoard.push(new ArrayBuffer(1 << 20)); } catch (e) { hoard = null; return true; } }',
    ];
    for (const bomb of bombs) {
      const outcome = await runner.run(bomb, HALL, ROOMS);
      // The last one survives its own out-of-memory error; memory then frees and it may answer true.
      if (outcome.ok) expect(bomb).toContain('catch');
      else expect(['memory', 'timeout']).toContain(outcome.error);
    }
    await expectServedAfterwards();
  });

  it('contains a recursion bomb (stack limit), and the next run succeeds', async () => {
    await expect(runner.run('function f() { return f() + 1; }', HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'memory' });
    const deep = 'function () { var o = []; for (var i = 0; i < 100000; i++) o = [o]; return String(o) !== ""; }';
    await expect(runner.run(deep, HALL, ROOMS)).resolves.toMatchObject({ ok: false });
    await expectServedAfterwards();
  });

  it('keeps the event loop responsive while a function loops', async () => {
    let ticks = 0;
    let running = true;
    const tick = (): void => {
      ticks += 1;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const outcome = await runner.run('function () { while (true) {} }', HALL, ROOMS);
    running = false;
    expect(outcome).toMatchObject({ ok: false, error: 'timeout' });
    // A blocked loop would allow one or two ticks; a free one turns many times while the worker loops.
    expect(ticks).toBeGreaterThan(20);
  });

  it('rejects invalid functions', async () => {
    const invalid = ['function (', '42', '"function () { return true; }"', 'undefined', 'throw new Error("x")', ''];
    for (const source of invalid) {
      await expect(runner.run(source, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'invalid-function' });
    }
    const huge = `function () { return ${JSON.stringify('x'.repeat(70 * 1024))}.length > 0; }`;
    await expect(runner.run(huge, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'invalid-function' });
    await expect(runner.run(42 as unknown as string, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'invalid-function' });
  });

  it('refuses options beyond the limits', () => {
    expect(() => createLegacyRunner({ deadlineMs: 101 })).toThrow(RangeError);
    expect(() => createLegacyRunner({ workers: 0 })).toThrow(RangeError);
    expect(() => createLegacyRunner({ memoryBytes: 1 })).toThrow(RangeError);
    expect(() => createLegacyRunner({ maxQueue: -1 })).toThrow(RangeError);
  });
});

describe('legacy runner: hostile functions fail closed', () => {
  // Each returns true only if the escape worked; failing closed means no listener is matched.
  const hostile: Record<string, string> = {
    'constructor escape': `function () { var p = this.constructor.constructor('return typeof process')(); return p !== 'undefined'; }`,
    'function constructor escape': `function (h, w) { var p = w.constructor.constructor('return process')(); return !!p && !!p.env; }`,
    require: `function () { return typeof require === 'function' && !!require('node:fs'); }`,
    'globalThis.process': `function () { return typeof globalThis.process === 'object' && globalThis.process.exit !== undefined; }`,
    setTimeout: `function () { setTimeout(function () {}, 0); return true; }`,
    fetch: `function () { fetch('http://127.0.0.1:1/'); return true; }`,
    'dynamic import': `function () { var loaded = false; import('node:fs').then(function () { loaded = true; }); return loaded; }`,
    'host globals': `function () { return ['console', 'std', 'os', 'Buffer', 'WebAssembly', 'XMLHttpRequest'].some(function (n) { return typeof globalThis[n] !== 'undefined'; }); }`,
    'queued jobs': `function () { var ran = false; Promise.resolve().then(function () { ran = true; }); return ran; }`,
  };

  for (const [name, source] of Object.entries(hostile)) {
    it(name, async () => {
      const outcome: LegacyOutcome = await runner.run(source, HALL, ROOMS);
      expect(outcome.ok ? outcome.matched : []).toEqual([]);
    });
  }
});

describe('legacy runner: concurrency, back-pressure and shutdown', () => {
  it('answers several runs at once, each with its own result', async () => {
    const rooms = ['hall', 'attic', 'hall', 'cellar', 'attic', 'hall', 'garden', 'attic', 'hall', 'cellar'];
    const outcomes = await Promise.all(rooms.map((room) => runner.run(BY_ROOM, webhook({ room }), ROOMS)));
    outcomes.forEach((outcome, index) => {
      const expected = ROOMS.filter((r) => (r.data as { room: string }).room === rooms[index]).map((r) => r.listenerId);
      expect(outcome).toEqual({ ok: true, matched: expected });
    });
  });

  it('answers busy when the queue is full', async () => {
    const small = createLegacyRunner({ workers: 1, maxQueue: 1 });
    try {
      await expect(small.run(BY_ROOM, HALL, ROOMS)).resolves.toMatchObject({ ok: true }); // worker ready
      const looping = small.run('function () { for (;;) {} }', HALL, ROOMS);
      const waiting = small.run(BY_ROOM, HALL, ROOMS);
      await expect(small.run(BY_ROOM, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'busy' });
      await expect(looping).resolves.toMatchObject({ ok: false, error: 'timeout' });
      await expect(waiting).resolves.toMatchObject({ ok: true, matched: ['hall-hub', 'hall-hub-2'] });
    } finally {
      await small.close();
    }
  });

  it('answers queue-full for a webhook whose own queue is full, while another webhook still gets in', async () => {
    const small = createLegacyRunner({ workers: 1, maxQueuePerWebhook: 1 });
    try {
      await expect(small.run(BY_ROOM, HALL, ROOMS)).resolves.toMatchObject({ ok: true }); // worker ready
      const looping = small.run('function () { for (;;) {} }', HALL, ROOMS, 'wh_flood');
      const waiting = small.run(BY_ROOM, HALL, ROOMS, 'wh_flood');
      expect(small.reserve('wh_flood', 10)).toMatchObject({ error: 'queue-full', message: expect.stringContaining('at most 1 requests') });
      const held = small.reserve('wh_other', 10);
      expect(held).toHaveProperty('release');
      // Room held for a body being read counts as waiting: the webhook's one place is taken until given back.
      expect(small.reserve('wh_other', 10)).toMatchObject({ error: 'queue-full' });
      if ('release' in held) held.release();
      await expect(small.run(BY_ROOM, HALL, ROOMS, 'wh_flood')).resolves.toMatchObject({ ok: false, error: 'queue-full' });
      const other = small.run(BY_ROOM, HALL, ROOMS, 'wh_other');
      expect(small.waiting()).toEqual({ wh_flood: 1, wh_other: 1 });
      await expect(looping).resolves.toMatchObject({ ok: false, error: 'timeout' });
      await expect(Promise.all([waiting, other])).resolves.toEqual([
        { ok: true, matched: ['hall-hub', 'hall-hub-2'] },
        { ok: true, matched: ['hall-hub', 'hall-hub-2'] },
      ]);
    } finally {
      await small.close();
    }
  });

  it('close() ends the work in flight and refuses new runs', async () => {
    const closing = createLegacyRunner({ workers: 1 });
    await expect(closing.run(BY_ROOM, HALL, ROOMS)).resolves.toMatchObject({ ok: true });
    const looping = closing.run('function () { for (;;) {} }', HALL, ROOMS);
    await closing.close();
    await expect(looping).resolves.toMatchObject({ ok: false, error: 'busy', message: 'the legacy-function runner is closed' });
    await expect(closing.run(BY_ROOM, HALL, ROOMS)).resolves.toMatchObject({ ok: false, error: 'busy' });
  });
});

describe('legacy worker: loads the same under every host', () => {
  it('runs under tsx (a child process)', async () => {
    const { stdout } = await run(`${ROOT}node_modules/.bin/tsx`, ['test/unit/services/forwarder/legacy/legacy-fixtures/run-once.ts'], {
      cwd: ROOT,
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({ ok: true, matched: ['hall-hub'] });
  });

  it('runs under plain Node (the worker file itself, no transform)', async () => {
    const script = `
      import { Worker } from 'node:worker_threads';
      const worker = new Worker(new URL('./services/forwarder/legacy/legacy-worker.mjs', 'file://${ROOT}'), {
        workerData: { deadlineMs: 100, memoryBytes: 32 * 1024 * 1024, stackBytes: 128 * 1024 },
        execArgv: [],
      });
      worker.on('message', (message) => {
        if (message.type === 'ready') {
          worker.postMessage({ id: 7, job: { source: '(h, w) => h.room === w.body.room', webhookJson: '{"body":{"room":"hall"}}', dataJson: '[{"room":"attic"},{"room":"hall"}]' } });
        } else {
          console.log(JSON.stringify(message));
          void worker.terminate();
        }
      });`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({ type: 'answer', id: 7, answer: { status: 'ok', flags: '01' } });
  });
});
