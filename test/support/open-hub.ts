/**
 * Opens a hub on a core as the renderer does (`hubs.open`) and resolves with the snapshot that follows;
 * a snapshot that says the hub could not be read rejects with its error (code and message), as a
 * failed call would.
 */
import { AppError } from '../../common/app-error';
import type { DeviceList, HubSnapshot } from '../../common/ipc-contract';
import type { HubdeskCore } from '../../main/core/host/hubdesk-core';

export type LoadedSnapshot = Extract<HubSnapshot, { status: 'loaded' }>;

export async function openHub(core: Pick<HubdeskCore, 'handlers' | 'onEvent'>, hubId: string): Promise<LoadedSnapshot> {
  let off = () => {};
  const snapshot = new Promise<HubSnapshot>((resolve) => {
    off = core.onEvent('hubs.snapshot', (payload) => {
      if (payload.hubId === hubId) resolve(payload);
    });
  });
  try {
    await core.handlers['hubs.open'](hubId);
    const read = await snapshot;
    if (read.status === 'error') throw new AppError(read.error.code, read.error.message);
    return read;
  } finally {
    off();
  }
}

/** The open hub's device list, read afresh. */
export async function readDevices(core: Pick<HubdeskCore, 'handlers' | 'onEvent'>, hubId: string): Promise<DeviceList> {
  return (await openHub(core, hubId)).devices;
}
