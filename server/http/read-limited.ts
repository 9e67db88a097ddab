import { MnemoError } from '../../engine/errors/mnemo-error.ts';

/**
 * The request's body, read as it arrives and refused as soon as it passes `limit` bytes: a declared
 * Content-Length is checked first, but a chunked body declares none, and reading it whole before
 * measuring let one upload of 600 MB take the server's memory to 2 GB.
 */
export async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = () => new MnemoError('invalid_request_body', `body: must be at most ${limit} bytes`);
  if (Number(req.headers.get('content-length') ?? '0') > limit) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
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
