/**
 * Words made into an identifier the API takes (a Slug, engine/contract/common.ts): accents off first
 * (not each accented letter a dash), every run of other signs one dash, nothing but a letter or a digit
 * at its start, no dash at its end, at most `max` characters.
 */
export function slugLike(s: string, max: number): string {
  const like = s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, max);
  return like.replace(/(?<!-)-+$/, '');
}

/**
 * An Object's type or key made from words the page shows: "Lucía Fernández" as "lucia-fernandez", "item"
 * where no letter of a-z is left (CJK).
 */
export const slug = (s: string): string => slugLike(s.toLowerCase(), 64) || 'item';
