/** Facts' predicates are slugs; people read "favourite colour", not "favourite_colour". */
export function humanizePredicate(predicate: string): string {
  return predicate.replaceAll('_', ' ').trim();
}

/**
 * A fact Record's citable line, "Ana favourite colour: green": what the engine indexes and quotes as its
 * evidence, so a display of the fact that reads the same is what a citation quotes.
 */
export function factLine(f: { subject: string; predicate: string; value: unknown }): string {
  return factLineHead(f.subject, f.predicate) + String(f.value);
}

/** A fact's line up to its value: "Ana favourite colour: ". */
export const factLineHead = (subject: string, predicate: string): string =>
  `${subject} ${humanizePredicate(predicate)}: `;
