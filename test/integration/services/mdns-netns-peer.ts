/**
 * One side of the mDNS network-namespace test, run inside a namespace with `ip netns exec`:
 * - `advertise <hubId> <port>`: announces a hub as the stack does, prints `advertising`, and sends the
 *   goodbye on SIGTERM;
 * - `browse <hubId>`: prints the first valid announcement for that id as JSON and exits 0, or exits 1
 *   after 15 s without one.
 */
import { parseLanHub } from '../../../main/core/hubs/lan-directory';
import { createBonjourBrowser } from '../../../main/mdns/bonjour-browser';
import { advertiseHub } from '../../../services/hub/hub-advertiser';

const logger = { info: () => {}, warn: (message: string, fields?: Record<string, unknown>) => console.error(message, fields), error: () => {} };
const [mode, hubId, port] = process.argv.slice(2);

if (mode === 'advertise' && hubId && port) {
  const advertisement = advertiseHub({ id: hubId, name: 'Netns hub', url: `http://127.0.0.1:${port}`, secureUrl: null, logger });
  console.log('advertising');
  process.once('SIGTERM', () => void advertisement.close().finally(() => process.exit(0)));
} else if (mode === 'browse' && hubId) {
  const timeout = setTimeout(() => process.exit(1), 15_000);
  const stop = createBonjourBrowser(logger).start(
    (service) => {
      const hub = parseLanHub(service);
      if (typeof hub === 'string' || hub.id !== hubId) return;
      console.log(JSON.stringify(hub));
      clearTimeout(timeout);
      stop();
    },
    () => {},
  );
} else {
  console.error('usage: mdns-netns-peer advertise <hubId> <port> | browse <hubId>');
  process.exit(2);
}
