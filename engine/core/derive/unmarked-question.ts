/**
 * A question a chat asks without its mark: "do i live in porto or lisbon lol", "Are you still at
 * Acme". A statement opens with its subject; these open with the verb that asks, then who. ("Had I
 * known …" is no question, nor is "Where I live it rains": a wh-word alone opens statements too.)
 */
const asksFirst =
  /^[^\p{L}\p{N}]*(?:do|does|did|am|are|is|was|were|can|could|will|would|should|shall|have|has)\s+(?:i|you|we|he|she|they|it)(?![\p{L}\p{N}'’])/iu;

export function opensAsQuestion(sentence: string): boolean {
  return asksFirst.test(sentence);
}
