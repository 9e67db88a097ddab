import { MnemoError } from '../../errors/mnemo-error.ts';
import { decodeCursor, encodeCursor } from './page-cursor.ts';

/**
 * Where a profile page ended: whether its last line holds a slot (those lines come first), its
 * valid_from and write order (`n`), in its Brain.
 */
export interface ProfilePosition {
  slotted: boolean;
  validFromMs: number;
  n: number;
}

/**
 * A profile cursor names its Brain (by public id) as well as the position: unlike the list cursors,
 * which predate any binding, it is new, so refusing another Brain's costs no client a cursor it holds.
 */
export function encodeProfileCursor(brainId: string, at: ProfilePosition): string {
  return encodeCursor(`profile:${at.slotted ? 's' : 'o'}:${at.validFromMs}:${at.n}:${brainId}`);
}

export function decodeProfileCursor(brainId: string, cursor: string): ProfilePosition {
  const text = decodeCursor(cursor);
  const m = /^profile:([so]):(-?\d{1,16}):(\d{1,16}):(.*)$/su.exec(text);
  if (!m) {
    // Before slot lines came first, a cursor held no group: its place is in no order served now.
    if (/^profile:-?\d{1,16}:\d{1,16}:/u.test(text))
      throw new MnemoError(
        'invalid_request_body',
        'cursor: from an earlier version of this server, whose profile was in another order: read it again from the first page',
      );
    throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  }
  if (m[4] !== brainId)
    throw new MnemoError('invalid_request_body', "cursor: not a cursor of this Brain's profile");
  return { slotted: m[1] === 's', validFromMs: Number(m[2]), n: Number(m[3]) };
}
