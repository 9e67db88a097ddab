import { MnemoError } from '../errors/mnemo-error.ts';

/** Opaque cursors: base64url of the last id served. Anything undecodable is invalid_request_body. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(`c1:${lastId}`).toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!raw.startsWith('c1:') || raw.length < 4)
    throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  return raw.slice(3);
}
