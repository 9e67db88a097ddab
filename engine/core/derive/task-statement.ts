import { statementKey } from './statement-key.ts';

/** How a checklist's task reads as a Memory: "To do: send Priya the doc", "Done: renew passport". */
const opening = { open: 'To do: ', done: 'Done: ' } as const;

/** A task's Memory statement, open or done. */
export function taskStatement(done: boolean, statement: string): string {
  return `${done ? opening.done : opening.open}${statement}`;
}

/**
 * How the Memories of open (or done) tasks begin: their statement, and their statement key (the
 * `norm` column a store indexes), by which a store finds them without reading every Memory; the key's
 * start is shared by other statements ("done with the move"), the statement's is not.
 */
export function taskStatementStart(done: boolean): { statement: string; key: string } {
  const statement = done ? opening.done : opening.open;
  // The opening's words in the key of a task's statement ("to do"), found with words after them. A
  // key of under three words keeps its punctuation ("done: laundry"; statement-key.ts), so the key
  // begins with these words and then a space or a colon.
  const words = 'qqq rrr sss ttt';
  const key = statementKey(`${statement}${words}`);
  if (!key.endsWith(words)) throw new Error(`a task's statement key does not end in its words: ${key}`);
  return { statement, key: key.slice(0, -words.length).trimEnd() };
}
