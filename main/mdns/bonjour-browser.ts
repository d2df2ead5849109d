/**
 * The MdnsBrowser port over bonjour-service (pure JS, so both hosts use it). It only relays what it
 * hears; the core validates every announcement (main/core/hubs/lan-directory.ts).
 */
import { Bonjour, type Service } from 'bonjour-service';
import type { Logger, MdnsBrowser, MdnsService } from '../core/shared';
import { errorMessage } from '../../common/error-message';

/** DNS-SD service type of a hub (docs/interface.md A.2): `_hub._tcp.local`. */
export const HUB_SERVICE_TYPE = 'hub';
/** bonjour-service asks once; asking again now and then finds hubs whose announcement was missed. */
const REQUERY_MS = 30_000;

export function createBonjourBrowser(logger: Logger): MdnsBrowser {
  return {
    start(onUp, onDown) {
      // A socket error (no multicast on this network, port 5353 refused) must not take the app down: LAN discovery is an extra.
      const bonjour = new Bonjour({}, (error: unknown) => logger.warn('mdns: browsing failed', { error: errorMessage(error) }));
      const browser = bonjour.find({ type: HUB_SERVICE_TYPE });
      browser.on('up', (service) => onUp(toMdnsService(service)));
      browser.on('txt-update', (service) => onUp(toMdnsService(service)));
      browser.on('srv-update', (service) => onUp(toMdnsService(service)));
      browser.on('down', (service) => onDown(toMdnsService(service)));
      const requery = setInterval(() => {
        browser.expire(); // drops instances whose TTL ran out without a goodbye
        browser.update();
      }, REQUERY_MS);
      requery.unref();
      return () => {
        clearInterval(requery);
        browser.stop();
        bonjour.destroy();
      };
    },
  };
}

function toMdnsService(service: Service): MdnsService {
  return { name: String(service.fqdn ?? service.name), txt: service.txt, addresses: service.addresses, port: service.port };
}
