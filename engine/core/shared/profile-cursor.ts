import type { ProfileGroup } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { decodeCursor, encodeCursor } from './page-cursor.ts';

/**
 * Where a profile page ended: its last line's group (health, slot, other: in that order), valid_from
 * and write order (`n`), in its Brain.
 */
export interface ProfilePosition {
  group: ProfileGroup;
  validFromMs: number;
  n: number;
}

/**
 * A profile cursor names its Brain (by public id) as well as the position: unlike the list cursors,
 * which predate any binding, it is new, so refusing another Brain's costs no client a cursor it holds.
 */
export function encodeProfileCursor(brainId: string, at: ProfilePosition): string {
  return encodeCursor(`profile:${at.group}:${at.validFromMs}:${at.n}:${brainId}`);
}

const earlier =
  'cursor: from an earlier version of this server, whose profile was in another order: read it again from the first page';

export function decodeProfileCursor(brainId: string, cursor: string): ProfilePosition {
  const text = decodeCursor(cursor);
  const m = /^profile:(health|slot|other):(-?\d{1,16}):(\d{1,16}):(.*)$/su.exec(text);
  if (!m) {
    // Before health lines came first a cursor's group was `s` (slot lines, health among them) or `o`,
    // and before the groups it held none: its place is in no order served now. Read on from it, a page
    // would leave out the health lines the earlier order had after it, or repeat those it had before.
    if (/^profile:(?:[so]:)?-?\d{1,16}:\d{1,16}:/u.test(text))
      throw new MnemoError('invalid_request_body', earlier);
    throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  }
  if (m[4] !== brainId)
    throw new MnemoError('invalid_request_body', "cursor: not a cursor of this Brain's profile");
  return { group: m[1] as ProfileGroup, validFromMs: Number(m[2]), n: Number(m[3]) };
}
