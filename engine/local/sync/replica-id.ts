import { createHash } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The id of a Record's redacted copy: the original's time part (so it sorts with it) and 16 characters
 * of a hash of the original id. Every side computes the same id from the original, so forgetting the
 * original anywhere names the copy, and a second push of the same original is the same Record.
 */
export function redactedCopyId(originalId: string): string {
  const body = originalId.slice('rec_'.length);
  const digest = createHash('sha256').update(`mnemo redacted copy\n${originalId}`).digest();
  let tail = '';
  for (let i = 0; i < 16; i += 1) tail += alphabet[digest[i]! % 32];
  return `rec_${body.slice(0, 10)}${tail}`;
}
