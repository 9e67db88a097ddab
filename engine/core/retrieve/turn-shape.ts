/*
 * What the lexical lanes index for a message: a turn, its own words with its speaker's and its thread
 * neighbours', so a reply is found through the question it answers (docs/decisions/retrieval.md).
 * Every adapter builds its turns to this shape.
 */

/** Neighbours that make a message understandable: the two before it and the one after, same thread. */
export const contextBefore = 2;
export const contextAfter = 1;
/** Each neighbour's text is cut to this many characters. */
export const maxNeighbourChars = 1_000;

/** How much each part of a turn weighs in its score: text, speaker, the messages before, the one after. */
export const turnWeights = { text: 1, speaker: 0.5, before: 0.6, after: 0.2 } as const;
