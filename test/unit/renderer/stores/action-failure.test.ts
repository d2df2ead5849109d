import { describe, expect, it } from 'vitest';
import { capabilityFailure, favouriteFailure } from '../../../../renderer/src/stores/action-failure';
import { light } from '../fake-bridge';

const heater = { ...light('heater', 'Water heater', false, 0.5) };

describe('action failure sentences', () => {
  it('names the action and the device, and says the hub’s reason once', () => {
    expect(capabilityFailure(heater, 'onoff', true, 'Water heater: The tank is empty.')).toBe("Couldn't turn on Water heater — The tank is empty.");
    expect(capabilityFailure(heater, 'onoff', false, 'The hub did not answer.')).toBe("Couldn't turn off Water heater — The hub did not answer.");
    expect(capabilityFailure(heater, 'dim', 0.3, 'Too low.')).toBe("Couldn't set Dim level of Water heater to 30 % — Too low.");
  });

  it('says which favourite change failed', () => {
    expect(favouriteFailure(heater, true, 'Disk full.')).toBe("Couldn't add Water heater to favourites — Disk full.");
    expect(favouriteFailure(heater, false, 'Disk full.')).toBe("Couldn't remove Water heater from favourites — Disk full.");
  });

  it('still makes a sentence when the device is gone', () => {
    expect(capabilityFailure(undefined, 'onoff', true, 'Gone.')).toBe("Couldn't turn on the device — Gone.");
  });
});
