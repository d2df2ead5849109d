/**
 * The Electron IPC path when a frame cannot be sent (docs/security.md, "Byte budgets"): an answer whose serialisation
 * throws (RangeError) or is over the frame bound is answered with an error envelope instead of a
 * rejected invoke; an event that cannot be sent (or whose send throws) is dropped and logged.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName, Handlers } from '../../../../common/ipc-contract';
import { MAX_OUTGOING_FRAME_BYTES, UNSENDABLE_ANSWER } from '../../../../main/core/host/frame-guard';
import { createDispatcher } from '../../../../main/core/host/ipc-dispatcher';
import { registerIpc } from '../../../../main/electron/ipc';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../../main/electron/ipc-channels';
import { SNAPSHOT_PAGE_EVENT } from '../../../../common/snapshot-pages';
import { device, snapshot } from '../../../support/hub-snapshots';
import { recordingLogger } from '../../../support/core-fakes';
import { BrowserWindow, fakeElectron, resetFakeElectron } from '../../../support/fake-electron';

vi.mock('electron', () => import('../../../support/fake-electron'));

const RENDERER = 'file:///opt/hubdesk/out/renderer/index.html';
const unserialisable = {
  toJSON: () => {
    throw new RangeError('Invalid string length');
  },
};

function setup() {
  const window = new BrowserWindow();
  window.webContents.mainFrame.url = RENDERER;
  const logger = recordingLogger();
  const handlers = {
    'hubs.list': vi.fn(async () => [unserialisable]),
    'inspector.clear': vi.fn(async () => 'x'.repeat(MAX_OUTGOING_FRAME_BYTES)),
    'webhooks.list': vi.fn(async () => []),
  } as unknown as Handlers;
  const listeners = new Map<EventName, (payload: unknown) => void>();
  const events = {
    onEvent: (name: EventName, listener: (payload: unknown) => void) => {
      listeners.set(name, listener);
      return () => {};
    },
  };
  registerIpc({
    window: window as never,
    isRendererUrl: (url) => url === RENDERER,
    dispatch: createDispatcher(handlers, logger, { signedIn: () => true }),
    events: events as never,
    logger,
  });
  const invoke = (channel: string) => fakeElectron.invoke(window.webContents, window.webContents.mainFrame, INVOKE_CHANNEL, channel, []);
  return { window, logger, listeners, invoke };
}

describe('Electron IPC: frames that cannot be sent', () => {
  beforeEach(() => resetFakeElectron());

  it('answers with an error envelope when the answer cannot be serialised or is over the bound', async () => {
    const { invoke, logger } = setup();
    await expect(invoke('hubs.list')).resolves.toEqual(UNSENDABLE_ANSWER);
    await expect(invoke('inspector.clear')).resolves.toEqual(UNSENDABLE_ANSWER);
    await expect(invoke('webhooks.list')).resolves.toEqual({ ok: true, value: [] });
    const errors = logger.lines.filter((line) => line.level === 'error' && line.message === 'ipc: an answer could not be sent');
    expect(errors.map((line) => line.fields?.channel)).toEqual(['hubs.list', 'inspector.clear']);
  });

  it('drops an event that cannot be sent, and one whose send throws, and logs both', () => {
    const { window, listeners, logger } = setup();
    listeners.get('webhooks.status')!({ connection: unserialisable });
    expect(window.webContents.send).not.toHaveBeenCalled();
    window.webContents.send.mockImplementationOnce(() => {
      throw new Error('An object could not be cloned.');
    });
    expect(() => listeners.get('webhooks.status')!({ webhookId: 'wh', connection: { state: 'connected' } })).not.toThrow();
    listeners.get('webhooks.status')!({ webhookId: 'wh', connection: { state: 'connecting' } });
    expect(window.webContents.send).toHaveBeenLastCalledWith(EVENT_CHANNEL, 'webhooks.status', { webhookId: 'wh', connection: { state: 'connecting' } });
    expect(logger.lines.filter((line) => line.message === 'ipc: an event could not be sent')).toHaveLength(2);
  });

  it('sends a large hub snapshot as pages, then the snapshot with the last page (snapshot-pages.ts)', () => {
    const { window, listeners } = setup();
    const devices = Array.from({ length: 250 }, (_, i) => device(`d${i}`, `Device ${i}`, { onoff: true }));
    listeners.get('hubs.snapshot')!(snapshot('h1', devices));
    const sent = window.webContents.send.mock.calls.map(([channel, name]) => `${channel} ${name}`);
    expect(sent).toEqual([`${EVENT_CHANNEL} ${SNAPSHOT_PAGE_EVENT}`, `${EVENT_CHANNEL} ${SNAPSHOT_PAGE_EVENT}`, `${EVENT_CHANNEL} hubs.snapshot`]);
    expect(window.webContents.send.mock.calls[2]![2]).toMatchObject({ pagesBefore: 2, devices: { devices: devices.slice(200) } });
  });
});
