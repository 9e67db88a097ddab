/** Most characters of a Record's text the embedder reads (each adapter cuts it in its query). */
export const embedTextChars = 4_000;

/**
 * What the embedder reads of a Record: a message's speaker, then its text (already cut to
 * `embedTextChars`), so "Ana: I moved to Lisbon" places the words with who said them.
 */
export function recordEmbedText(kind: string, content: string, text: string): string {
  if (kind !== 'message') return text;
  const { speaker } = JSON.parse(content) as { speaker?: string };
  return speaker ? `${speaker}: ${text}` : text;
}
