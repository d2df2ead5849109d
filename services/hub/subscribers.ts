/**
 * Who is subscribed to which URI, both ways: an event costs one lookup however many sockets are open,
 * and a socket that closes forgets all of its URIs. Shared by the hub's realtime channel and the
 * official client's (official-realtime.ts).
 */
export class Subscribers<C> {
  private readonly byUri = new Map<string, Set<C>>();
  private readonly byClient = new Map<C, Set<string>>();

  /** Subscribes `client` to `uri`; false when it already was. */
  add(client: C, uri: string): boolean {
    let uris = this.byClient.get(client);
    if (!uris) this.byClient.set(client, (uris = new Set()));
    if (uris.has(uri)) return false;
    uris.add(uri);
    let audience = this.byUri.get(uri);
    if (!audience) this.byUri.set(uri, (audience = new Set()));
    audience.add(client);
    return true;
  }

  /** Unsubscribes `client` from `uri`; false when it was not subscribed. */
  remove(client: C, uri: string): boolean {
    if (!this.byClient.get(client)?.delete(uri)) return false;
    const audience = this.byUri.get(uri);
    audience?.delete(client);
    if (audience?.size === 0) this.byUri.delete(uri);
    return true;
  }

  /** Forgets every subscription of `client` (it closed). */
  removeClient(client: C): void {
    for (const uri of this.byClient.get(client) ?? []) this.remove(client, uri);
    this.byClient.delete(client);
  }

  /** Forgets every subscription to `uri` (its device was removed). */
  forgetUri(uri: string): void {
    for (const client of this.byUri.get(uri) ?? []) this.byClient.get(client)?.delete(uri);
    this.byUri.delete(uri);
  }

  /** The clients subscribed to `uri`. */
  audience(uri: string): ReadonlySet<C> {
    return this.byUri.get(uri) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<never> = new Set();
