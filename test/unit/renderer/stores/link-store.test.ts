import { describe, expect, it, vi } from 'vitest';
import { createLinkStore, isConnected, resyncOnReconnect } from '../../../../renderer/src/stores/link-store';

const targets = () => {
  const load = vi.fn(() => Promise.resolve());
  const reload = vi.fn();
  const webhooksLoad = vi.fn(() => Promise.resolve());
  const desktopLoad = vi.fn(() => Promise.resolve());
  const insightsReload = vi.fn();
  return {
    load,
    reload,
    webhooksLoad,
    desktopLoad,
    insightsReload,
    session: { getState: () => ({ load }) },
    openHub: { getState: () => ({ reload }) },
    webhooks: { getState: () => ({ load: webhooksLoad }) },
    desktop: { getState: () => ({ load: desktopLoad }) },
    insights: { getState: () => ({ reload: insightsReload }) },
  };
};

describe('link store', () => {
  it('starts connected (Electron IPC never changes it) and follows what the transport reports', () => {
    const link = createLinkStore();
    expect(isConnected(link.getState())).toBe(true);
    link.getState().setLink({ state: 'reconnecting', reason: 'The connection to Hubdesk closed.' });
    expect(link.getState().link).toEqual({ state: 'reconnecting', reason: 'The connection to Hubdesk closed.' });
    expect(isConnected(link.getState())).toBe(false);
    link.getState().setLink({ state: 'lost', reason: 'Open the address Hubdesk printed.' });
    expect(link.getState().link.state).toBe('lost');
  });

  it('does not notify when the same state is reported again', () => {
    const link = createLinkStore();
    const seen = vi.fn();
    link.subscribe(seen);
    link.getState().setLink({ state: 'connected' });
    link.getState().setLink({ state: 'reconnecting', reason: 'a' });
    link.getState().setLink({ state: 'reconnecting', reason: 'a' });
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('re-reads the session, the open hub, the webhooks, the preferences and the history shown when the link comes back, and only then', () => {
    const link = createLinkStore();
    const t = targets();
    const stop = resyncOnReconnect(link, t);
    link.getState().setLink({ state: 'reconnecting', reason: 'a' });
    link.getState().setLink({ state: 'reconnecting', reason: 'b' });
    expect(t.load).not.toHaveBeenCalled();
    expect(t.reload).not.toHaveBeenCalled();
    link.getState().setLink({ state: 'connected' });
    expect(t.load).toHaveBeenCalledTimes(1);
    expect(t.reload).toHaveBeenCalledTimes(1);
    expect(t.webhooksLoad).toHaveBeenCalledTimes(1);
    expect(t.desktopLoad).toHaveBeenCalledTimes(1);
    expect(t.insightsReload).toHaveBeenCalledTimes(1);
    link.getState().setLink({ state: 'connected' });
    expect(t.load).toHaveBeenCalledTimes(1);

    stop();
    link.getState().setLink({ state: 'reconnecting', reason: 'a' });
    link.getState().setLink({ state: 'connected' });
    expect(t.load).toHaveBeenCalledTimes(1);
  });
});
