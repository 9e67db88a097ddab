import type { IncomingMessage } from 'node:http';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';

/**
 * The request's body, read as it arrives and refused as soon as it passes `limit` bytes: a declared
 * Content-Length is checked first, but a chunked body declares none, and reading it whole before
 * measuring let one upload of 600 MB take the server's memory to 2 GB.
 *
 * Given the Node request it came from (`incoming`, not yet read), the body is read from it directly:
 * asking the Request for its body makes node-server build a real Request, its AbortController and
 * web streams over the Node stream, per request (~7% of the server's CPU in `bench write`'s profile).
 * Either way, what is left unread of a refused body is node-server's to drain.
 */
export async function readLimited(
  req: Request,
  limit: number,
  incoming?: IncomingMessage,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const tooLarge = () => new MnemoError('invalid_request_body', `body: must be at most ${limit} bytes`);
  if (Number(req.headers.get('content-length') ?? '0') > limit) throw tooLarge();
  if (incoming && !incoming.readableDidRead && !incoming.destroyed) {
    // Stopped: the request is destroyed (its socket closed), which ends the read below with an error.
    signal?.addEventListener('abort', () => incoming.destroy(), { once: true });
    return readIncoming(incoming, limit, tooLarge);
  }
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  // Stopped: the stream is cancelled, which ends a read waiting on it.
  signal?.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (signal?.aborted) throw signal.reason;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function readIncoming(incoming: IncomingMessage, limit: number, tooLarge: () => Error): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (e: Error | null) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', finish);
      incoming.off('close', onClose);
      if (e) {
        // Stops reading; node-server drains or closes what is left once the answer is sent.
        incoming.pause();
        reject(e);
      } else resolve(Buffer.concat(chunks, total));
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limit) finish(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onClose = () => finish(new Error('the request was closed before its body ended'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', finish);
    incoming.on('close', onClose);
  });
}

/**
 * readLimited, given at most `ms` for the whole body: one trickled a byte at a time held a connection
 * for the server's request timeout (5 minutes), where no key was asked for yet. Past it the read is
 * refused and the request closed (its socket, where it came over one): a client that sends so slowly
 * is not waiting for an answer.
 */
export async function readLimitedWithin(
  req: Request,
  limit: number,
  ms: number,
  incoming?: IncomingMessage,
): Promise<Uint8Array> {
  const late = new MnemoError('invalid_request_body', `body: must arrive within ${ms / 1000} s`);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(late), ms);
  try {
    return await readLimited(req, limit, incoming, stop.signal);
  } catch (e) {
    throw stop.signal.aborted ? late : e;
  } finally {
    clearTimeout(timer);
  }
}
