/**
 * An Object's type or key made from words the page shows: "Lucía Fernández" as "lucia-fernandez" (accents
 * off first, not each accented letter a dash), "item" where no letter of a-z is left (CJK).
 */
export const slug = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+|(?<!-)-+$/g, '')
    .slice(0, 64) || 'item';
