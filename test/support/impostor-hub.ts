/**
 * A device that pretends to be a hub, as the audit behind docs/security.md, "Route trust", ran it: it answers the ping with
 * whatever id it is asked for (it cannot sign for it), accepts any login and records every credential
 * that reaches it: the delegation token of a login, and any bearer token. Plain HTTP, or HTTPS with a
 * certificate the test gives it. A test asserts that `credentials()` stays empty.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ImpostorHub {
  url: string;
  /** Paths of every request, in order (pings included). */
  requests(): string[];
  /** Every credential received: `login:<token>` or `bearer:<token>`. */
  credentials(): string[];
  close(): Promise<void>;
}

export async function startImpostorHub(options: { host?: string; port?: number; tls?: { key: string; cert: string } } = {}): Promise<ImpostorHub> {
  const requests: string[] = [];
  const credentials: string[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://impostor');
    requests.push(url.pathname);
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer) credentials.push(`bearer:${bearer}`);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === '/api/manager/system/ping') return answer(200, url.searchParams.get('id') ?? 'impostor');
      if (url.pathname === '/api/manager/users/login') {
        try {
          credentials.push(`login:${(JSON.parse(Buffer.concat(chunks).toString()) as { token: string }).token}`);
        } catch {
          // not a login anyone would send
        }
        return answer(200, 'impostor-session');
      }
      if (url.pathname === '/api/manager/devices/device') return answer(200, {});
      answer(404, { error: 'not_found' });
    });
  };
  const server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://${host}:${port}`,
    requests: () => [...requests],
    credentials: () => [...credentials],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
