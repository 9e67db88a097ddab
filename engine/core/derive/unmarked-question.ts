/**
 * A question a chat asks without its mark: "do i live in porto or lisbon lol", "Are you still at
 * Acme", "how do i say i live in berlin in german". A statement opens with its subject; these open
 * with the verb that asks (after a wh-word or not), then who. After a wh-word, who may be someone's
 * or the thing ("where does my sister live these days", "when is the party"): without one, "Do the
 * dishes" tells. ("Had I known …" is no question, nor is "Where I live it rains": a wh-word alone
 * opens statements too.)
 */
const asksFirst =
  /^[^\p{L}\p{N}]*(?:(?:how|what|where|when|why|which|who)\s+(?:do|does|did|am|are|is|was|were|can|could|will|would|should|shall|have|has)\s+(?:i|you|we|he|she|they|it|my|your|our|his|her|their|the|this|that)|(?:do|does|did|am|are|is|was|were|can|could|will|would|should|shall|have|has)\s+(?:i|you|we|he|she|they|it))(?![\p{L}\p{N}'’])/iu;

export function opensAsQuestion(sentence: string): boolean {
  return asksFirst.test(sentence);
}

/** A question, also with more marks after it: "Really?!", "What?..". (Not a question quoted in a statement.) */
export function isQuestion(s: string): boolean {
  let end = s.length;
  while (end > 0 && /[!?.…\s]/u.test(s[end - 1]!)) end -= 1;
  return s.slice(end).includes('?');
}
