/**
 * Announces a hub on the LAN as docs/interface.md A.2 says: DNS-SD `_hub._tcp.local` on the hub's plain HTTP port,
 * TXT `id=<hubId>` and, when it serves HTTPS, `secure=<port>`. bonjour-service answers with the
 * machine's non-loopback addresses, so an app elsewhere on the LAN reaches the hub only if it listens
 * on one of them (the stack's `host`).
 */
import { Bonjour } from 'bonjour-service';
import type { Logger } from '../../common/logger';
import { errorMessage } from '../../common/error-message';

export interface HubAdvertisement {
  /** Sends the goodbye (TTL 0) so browsers drop the hub at once, then closes the socket. */
  close(): Promise<void>;
}

export interface AdvertiseOptions {
  id: string;
  name: string;
  /** The hub's plain HTTP base URL; its port is announced. */
  url: string;
  /** The hub's HTTPS base URL, when it has one. */
  secureUrl: string | null;
  logger: Logger;
}

export function advertiseHub({ id, name, url, secureUrl, logger }: AdvertiseOptions): HubAdvertisement {
  const bonjour = new Bonjour({}, (error: unknown) => logger.warn('hub: mDNS advertisement failed', { hubId: id, error: errorMessage(error) }));
  const txt: Record<string, string> = { id };
  if (secureUrl !== null) txt.secure = new URL(secureUrl).port;
  // The id and the port in the instance name keep two hubs named alike from colliding: two stacks on one
  // LAN, or on one machine (the same demo ids; tests start several). A collision is not only a lost
  // announcement: bonjour-service then prints an Error on stdout, where `npm run stack` prints its JSON.
  const port = Number(new URL(url).port);
  bonjour.publish({ name: `${name} ${id} ${port}`, type: 'hub', port, txt });
  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        bonjour.unpublishAll(() => bonjour.destroy(() => resolve()));
      })),
  };
}
