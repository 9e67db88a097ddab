import type { Claim } from './deriver.ts';
import { normalizeStatement } from './record-text.ts';
import { foldName } from './resolve-owner.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * Words of a text that may be a person's first name said alone ("Marko" of "Marko's birthday is July
 * 3."): a capitalised word of letters. The store is asked which of them begin a known person's whole
 * name (derive-context.ts); at most `cap`, so a long note asks one bounded read.
 */
export function firstNameWords(text: string, cap = 64): string[] {
  const out = new Set<string>();
  for (const m of matchesOf(capitalised, text)) {
    out.add(normalizeStatement(m[0]));
    if (out.size >= cap) break;
  }
  return [...out];
}
const capitalised = /(?<![\p{L}\p{M}\p{N}_'’-])\p{Lu}[\p{Ll}\p{M}]+(?![\p{L}\p{M}\p{N}_-])/gu;

/** A whole name as a person's is written: two or three capitalised words ("Marko Babić"). */
const personName = /^\p{Lu}[\p{L}\p{M}'’-]*(?: \p{Lu}[\p{L}\p{M}'’-]*){1,2}$/u;

/**
 * The one person the Brain knows by `first` (normalized, as firstNameWords gives it) said alone, or
 * null: `subjects` are the whole names that hold a slot and begin with it ("Marko Babić"), `speakers`
 * the Brain's speakers of that first name, folded (BrainUnitOfWork.speakersFirstNamed). Two people
 * ("Marko Babić" and "Marko Horvat", or a speaker "Marko Kos") and "Marko" may be either: null, and it
 * stays a person "Marko", as attributing one's birthday to the other is worse than two slots. A
 * speaker alone names nobody here: the slot's whole name, as written, is what a claim is keyed by.
 */
export function oneKnownPerson(
  first: string,
  subjects: readonly string[],
  speakers: readonly string[],
): string | null {
  const folded = foldName(first);
  const whole = subjects.filter(
    (s) => personName.test(s.trim()) && normalizeStatement(s).startsWith(`${first} `),
  );
  const people = new Set(whole.map(foldName));
  for (const s of speakers) if (s.includes(' ') && s.startsWith(`${folded} `)) people.add(s);
  return people.size === 1 && whole.length > 0 ? whole[0]!.trim().replace(/\s+/gu, ' ') : null;
}

/**
 * Claims of a person named by first name alone ("Marko", subject and owner) read as the one person
 * the Brain knows by it (`known`: folded first name to whole name, oneKnownPerson), so a slot said of
 * "Marko" is Marko Babić's and the later word supersedes or conflicts as for his whole name. Not the
 * Record's own speakers (`spoken`: a chat's "Marko" who says "I live in Split" is left as he is named
 * there). The engine's own words that open with the name ("Marko's birthday is July 3") name him whole;
 * a sentence quoted as said stays as said.
 */
export function withKnownFirstNames(
  claims: Claim[],
  known: ReadonlyMap<string, string> | undefined,
  spoken: readonly string[],
): Claim[] {
  if (known === undefined || known.size === 0) return claims;
  const speakers = new Set(spoken.map(foldName));
  return claims.map((c) => {
    const entity = c.owner.state === 'other' ? c.owner.entity : undefined;
    if (entity === undefined || entity === null) return c;
    const first = foldName(entity);
    const whole = known.get(first);
    if (whole === undefined || speakers.has(first) || foldName(c.subject) !== first) return c;
    const lead = new RegExp(`^${escape(c.subject.trim())}(?![\\p{L}\\p{M}\\p{N}_-])`, 'u');
    const statement = c.statement !== c.quote ? c.statement.replace(lead, whole) : c.statement;
    return { ...c, statement, subject: whole, owner: { ...c.owner, entity: whole } };
  });
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/**
 * Whether `a` and `b` are one person's first name alone and their whole name ("Marko" and "Marko
 * Babić", either way round): what withKnownFirstNames changes of a claim, or undoes where a second
 * Marko is known since. A Memory of one is not stated again by a claim of the other (upgrade-derivation.ts).
 */
export function firstAndWhole(a: string, b: string): boolean {
  const [x, y] = [foldName(a), foldName(b)];
  const [one, whole] = x.includes(' ') ? [y, x] : [x, y];
  return !one.includes(' ') && one !== '' && whole.startsWith(`${one} `);
}

/**
 * The first names (normalized, as firstNameWords gives them) of the whole names these claims hold a
 * slot of as another person's ("marko" of "Marko Babić's birthday"): where one is new to the Brain,
 * what named the first name alone before it is read again (derive-jobs.ts).
 */
export function wholeNameFirsts(claims: readonly Claim[]): string[] {
  const out = new Set<string>();
  for (const c of claims)
    if (c.predicate !== null && c.owner.state === 'other' && personName.test(c.subject.trim()))
      out.add(normalizeStatement(c.subject.trim().split(/\s+/u)[0]!));
  return [...out];
}
