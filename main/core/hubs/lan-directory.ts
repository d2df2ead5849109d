/**
 * The hubs heard on the LAN over mDNS (`_hub._tcp`, TXT `id=<hubId>`, docs/interface.md A.2), as route
 * candidates per hub id. Anyone on the LAN can announce anything, so each instance is validated and a
 * malformed one is ignored (and logged once per instance name). The directory keeps every valid id;
 * only route selection decides which ones matter: it asks for the ids in the user's record, so a
 * foreign id is never used. An announcement is only a hint: it yields secure routes only (TXT
 * `secure=<port>`), each naming the hub its TLS certificate must name; the announced plain HTTP port
 * is never a route, since anyone can announce any id (docs/security.md, "Route trust").
 */
import { isIP, isIPv6 } from 'node:net';
import type { Logger, MdnsBrowser, MdnsService } from '../shared';
import type { Route } from './route-selection';
import { createEmitter } from '../../../common/emitter';
import { errorMessage } from '../../../common/error-message';

/** A validated announcement. */
export interface LanHub {
  id: string;
  addresses: string[];
  port: number;
  /** The hub's HTTPS port on the same addresses, when it announces one (TXT `secure=<port>`). */
  securePort: number | null;
}

export interface LanDirectory {
  /** The secure LAN routes announced for this hub now. */
  routes(hubId: string): Route[];
  /** Called with the hub id whenever a valid announcement arrives (new or changed). Returns unsubscribe. */
  onUp(listener: (hubId: string) => void): () => void;
  stop(): void;
}

const HUB_ID = /^[\x21-\x7e]{1,200}$/; // printable ASCII, no spaces
const PORT = /^[0-9]{1,5}$/;
/** Instance names already logged as malformed; bounded, since the LAN chooses how many there are. */
const MAX_LOGGED = 256;

export function createLanDirectory(browser: MdnsBrowser, logger: Logger): LanDirectory {
  const hubs = new Map<string, LanHub>();
  const announced = createEmitter<string>((error) => logger.error('mdns: a listener of announced hubs failed', { error: errorMessage(error) }));
  const logged = new Set<string>();

  const up = (service: MdnsService) => {
    const parsed = parseLanHub(service);
    if (typeof parsed === 'string') {
      hubs.delete(service.name); // an instance that turned malformed no longer counts
      if (!logged.has(service.name)) {
        if (logged.size >= MAX_LOGGED) logged.clear();
        logged.add(service.name);
        logger.warn('mdns: ignored a malformed hub announcement', { instance: service.name.slice(0, 100), reason: parsed });
      }
      return;
    }
    hubs.set(service.name, parsed);
    announced.emit(parsed.id);
  };
  const down = (service: MdnsService) => {
    hubs.delete(service.name);
  };
  const stop = browser.start(up, down);

  return {
    routes(hubId) {
      const announced = [...hubs.values()].filter((hub) => hub.id === hubId);
      return announced.flatMap((hub) => (hub.securePort === null ? [] : hub.addresses.map((address) => secureLanRoute(hub.id, address, hub.securePort!))));
    },
    onUp: (listener) => announced.on(listener),
    stop() {
      stop();
      hubs.clear();
      announced.clear();
    },
  };
}

/** The announcement as a LanHub, or why it is malformed. */
export function parseLanHub(service: MdnsService): LanHub | string {
  const txt = service.txt;
  if (typeof txt !== 'object' || txt === null) return 'no TXT record';
  const { id, secure } = txt as Record<string, unknown>;
  if (typeof id !== 'string' || !HUB_ID.test(id)) return 'TXT id missing or not a printable string of at most 200 characters';
  const securePort = secure === undefined ? null : parsePort(secure);
  if (securePort === undefined) return 'TXT secure is not a port number';
  const port = parsePort(service.port);
  if (port === undefined) return 'port is not within 1..65535';
  if (!Array.isArray(service.addresses)) return 'no addresses';
  // A link-local IPv6 address is useless without its interface (zone), which mDNS does not carry.
  const addresses = service.addresses.filter((address): address is string => typeof address === 'string' && isIP(address) !== 0 && !isLinkLocalV6(address));
  if (addresses.length === 0) return 'no usable IPv4 or IPv6 address';
  return { id, addresses: [...new Set(addresses)], port, securePort };
}

/** A port number 1..65535 (TXT values are strings), or undefined when malformed. */
function parsePort(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !PORT.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65_535 ? port : undefined;
}

function isLinkLocalV6(address: string): boolean {
  return isIPv6(address) && /^fe[89ab]/i.test(address);
}

function secureLanRoute(hubId: string, address: string, port: number): Route {
  const host = isIPv6(address) ? `[${address}]` : address;
  return { kind: 'local-secure', baseUrl: `https://${host}:${port}`, namedHub: hubId };
}
