import { MnemoError } from '../../errors/mnemo-error.ts';
import { decodeCursor, encodeCursor } from './page-cursor.ts';

/** Where a profile page ended: its last line's valid_from and write order (`n`), in its Brain. */
export interface ProfilePosition {
  validFromMs: number;
  n: number;
}

/**
 * A profile cursor names its Brain (by public id) as well as the position: unlike the list cursors,
 * which predate any binding, it is new, so refusing another Brain's costs no client a cursor it holds.
 */
export function encodeProfileCursor(brainId: string, at: ProfilePosition): string {
  return encodeCursor(`profile:${at.validFromMs}:${at.n}:${brainId}`);
}

export function decodeProfileCursor(brainId: string, cursor: string): ProfilePosition {
  const m = /^profile:(-?\d{1,16}):(\d{1,16}):(.*)$/su.exec(decodeCursor(cursor));
  if (!m) throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  if (m[3] !== brainId)
    throw new MnemoError('invalid_request_body', "cursor: not a cursor of this Brain's profile");
  return { validFromMs: Number(m[1]), n: Number(m[2]) };
}
