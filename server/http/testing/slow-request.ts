import { connect } from 'node:net';

export interface RawReply {
  status: number;
  head: string;
  body: Record<string, unknown>;
}

/**
 * For tests: a POST /v1/brains the server is busy with for as long as the test likes. Its body
 * arrives in two parts, so the handler waits for the second (a slow upload; no sleep in the server).
 * `reply` is what came back on the raw socket once it closed.
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
  const reply = new Promise<RawReply>((resolve) =>
    socket.once('close', () => {
      const [head = '', json = '{}'] = out.split('\r\n\r\n');
      resolve({
        status: Number(head.split(' ')[1]),
        head,
        body: JSON.parse(json) as Record<string, unknown>,
      });
    }),
  );
  socket.write(
    `POST /v1/brains HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 3)}`,
  );
  // The app has the request once the headers are parsed; give the event loop (or the child) time.
  await new Promise((r) => setTimeout(r, 300));
  return { reply, finish: () => void socket.write(body.slice(3)) };
}
