import { MnemoError } from '../errors/mnemo-error.ts';

/** Cursors are opaque to callers: the last id of the page, base64url-encoded with a tag. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(`c1:${lastId}`).toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!raw.startsWith('c1:') || raw.length < 4)
    throw new MnemoError('invalid_request_body', 'cursor: not a cursor issued by this API');
  return raw.slice(3);
}
