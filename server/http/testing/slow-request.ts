import { connect } from 'node:net';
import { parseRawReply, type RawReply } from './raw-reply.ts';

/**
 * For tests: a POST /v1/brains the server is busy with for as long as the test likes. Its body
 * arrives in two parts, so the handler waits for the second (a slow upload; no sleep in the server).
 * It asks `Expect: 100-continue`: Node answers `100 Continue` as it hands the request to the app, so
 * once that line is back the request is in flight, however busy the machine. `reply` is what came back
 * on the raw socket once it closed (the final response, after the 100).
 */
export async function slowCreateBrain(
  port: number,
  key: string,
  id: string,
): Promise<{ reply: Promise<RawReply>; finish: () => void }> {
  const body = JSON.stringify({ id });
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let out = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (out += d));
  const continued = new Promise<void>((resolve) => {
    const seen = () => {
      if (!out.includes('\r\n\r\n')) return;
      socket.off('data', seen);
      resolve();
    };
    socket.on('data', seen);
  });
  const reply = new Promise<RawReply>((resolve, reject) =>
    socket.once('close', () => {
      try {
        resolve(parseRawReply(out));
      } catch (e) {
        reject(e as Error);
      }
    }),
  );
  socket.write(
    `POST /v1/brains HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      'Expect: 100-continue\r\n\r\n',
  );
  await continued;
  socket.write(body.slice(0, 3));
  return { reply, finish: () => void socket.write(body.slice(3)) };
}
