/**
 * HTTP at the socket level, for requests fetch cannot make: too many headers, bodies that never end,
 * clients that stall. Resolves with the server's answer once the connection is closed: by the server,
 * or by this client once a complete answer (its Content-Length read) has arrived, as an HTTP client
 * does with `Connection: close` (a server lingering to read the rest of a refused body waits for that).
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  text: string;
}

/** `drive` writes to the socket (it may keep writing until `answered()` is true); `localAddress`, the client's own address on loopback. */
export function rawExchange(
  baseUrl: string,
  drive: (socket: Socket, answered: () => boolean) => void | Promise<void>,
  localAddress?: string,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ port: Number(port), host: hostname, localAddress });
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    if (complete(text)) socket.end();
  });
  // The server may reset the connection while a client is still sending: what it answered first counts.
  socket.on('error', () => {});
  return new Promise((resolve, reject) => {
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3}) /.exec(text);
      if (match) resolve({ status: Number(match[1]), text });
      else reject(new Error(`no HTTP answer before the connection closed: ${JSON.stringify(text.slice(0, 200))}`));
    });
    socket.once('connect', () => void Promise.resolve(drive(socket, () => text.length > 0)).catch(() => socket.destroy()));
  });
}

export function writeAsync(socket: Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
}

/** Whether `text` holds a whole answer: its head and as many body bytes as its Content-Length says. */
function complete(text: string): boolean {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const length = /\r\ncontent-length: *(\d+)\r\n/i.exec(text.slice(0, headEnd + 2));
  return length !== null && Buffer.byteLength(text.slice(headEnd + 4), 'latin1') >= Number(length[1]);
}
