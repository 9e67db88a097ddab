/**
 * A Trace's words for what the engine names by key. The keys are the engine's (timings_ms, lane
 * names) and may grow: an unknown one reads as its words with spaces, never as a blank.
 */

/** Stages of answering a question, by their key in a Trace's timings_ms (engine/retrieve, context). */
const stageNames: Readonly<Record<string, string>> = {
  index_catch_up: 'Bringing the search index up to date',
  embedder_load_wait: 'Waiting for the embedding model to load',
  embed: 'Embedding the question',
  embed_wait: 'Waiting for the question’s embedding',
  expand: 'Searching again with related words',
  rerank: 'Reranking',
  retrieve: 'Searching, in all',
  assemble: 'Putting the answer together',
  total: 'Total',
};

/**
 * Search lanes, by their name in a Trace's lanes (engine/retrieve/*-lane.ts; `changes`, a question
 * asking what changed: engine/context/assemble-context.ts).
 */
const laneNames: Readonly<Record<string, string>> = {
  changes: 'What changed in the time asked about',
  semantic: 'By meaning',
  lexical: 'By words',
  entity: 'By names',
  slot: 'By known facts',
  time: 'In the time asked about',
  when: 'Saying when',
  recency: 'Most recent',
  prompt: 'The message before a match',
  topic: 'By the topic asked about',
};

const sentence = (key: string) => {
  const words = key.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const stageLabel = (key: string): string => stageNames[key] ?? sentence(key);
export const laneLabel = (name: string): string => laneNames[name] ?? sentence(name);

/** A Trace's outcome in the words the Traces list uses for it. */
export const outcomeLabel = (status: 'ready' | 'processing' | 'failed'): string =>
  status === 'ready' ? 'Answered' : status === 'processing' ? 'Processing' : 'Failed';

/** Record ids share their time prefix; the tail tells them apart in a chart label. */
export const shortId = (id: string): string => (id.length > 14 ? `${id.slice(0, 4)}…${id.slice(-8)}` : id);

/** What a row stands for while its Record's words are still to be read. */
export const wordsLoading = 'loading…';

/**
 * What a Trace calls a Record it names: its words once read. Until then a placeholder, the same for
 * every row, so a screen reader does not read out ids that are about to be replaced (the id stays the
 * row's tooltip). A Record whose words cannot be read (forgotten since, or a key without
 * records:read) is named by its id, the only name left for it.
 */
export function recordName(
  id: string,
  words: ReadonlyMap<string, string>,
  failed: ReadonlySet<string>,
): string {
  return words.get(id) ?? (failed.has(id) ? shortId(id) : wordsLoading);
}
