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

const verbSlots = new Set(['lives in', 'works at', 'studies at']);
/** A slot said with a verb of its subject ("Ana lives in Porto"), not as an attribute ("Ana's diet is …"). */
export const saidAsVerb = (predicate: string): boolean => verbSlots.has(predicate);

/**
 * A slot version's words up to the value it ends: "Ana no longer lives in ", "Ana's diet is no longer ".
 * The engine writes an ending so ("I don't live in Lisbon anymore", "I'm not vegan anymore"), and the
 * UI tells an ending from a value by it.
 */
export const endedHead = (subject: string, predicate: string): string =>
  saidAsVerb(predicate) ? `${subject} no longer ${predicate} ` : `${subject}'s ${predicate} is no longer `;
