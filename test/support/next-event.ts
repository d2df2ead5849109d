/** Waiting for a core's events in integration tests (the test's own timeout bounds every wait). */
import type { EventName, EventPayload } from '../../common/ipc-contract';
import type { HubdeskCore } from '../../main/core/host/hubdesk-core';

/** Resolves with the first payload of `event` from now on that `match` accepts. */
export function nextEvent<E extends EventName>(
  core: Pick<HubdeskCore, 'onEvent'>,
  event: E,
  match: (payload: EventPayload<E>) => boolean = () => true,
): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const off = core.onEvent(event, (payload) => {
      if (!match(payload)) return;
      off();
      resolve(payload);
    });
  });
}

/** Resolves when `check` holds, re-checking after every webhook event of the core. */
export function webhooksEventually(core: Pick<HubdeskCore, 'onEvent'>, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve();
    const offs = [core.onEvent('webhooks.entry', test), core.onEvent('webhooks.entryPatch', test), core.onEvent('webhooks.status', test)];
    function test() {
      if (!check()) return;
      offs.forEach((off) => off());
      resolve();
    }
  });
}
