import { writeFileSync } from 'node:fs';

/** A wink-format file: words most-frequent first, each vector with its norm and index appended. */
export function winkFile(path: string): void {
  const vocab: Record<string, number[]> = {
    the: [1, 1, 1, 1],
    cat: [1, 0, 0, 0.1],
    kitten: [0.9, 0.1, 0, 0.1],
    car: [0, 0, 1, 0.1],
    truck: [0, 0.1, 0.9, 0.1],
  };
  const wordsList = Object.keys(vocab);
  const vectors = Object.fromEntries(
    wordsList.map((w, i) => [w, [...vocab[w]!, Math.hypot(...vocab[w]!), i]]),
  );
  writeFileSync(
    path,
    JSON.stringify({
      precision: 8,
      l2NormIndex: 4,
      wordIndex: 5,
      size: wordsList.length,
      dimensions: 4,
      words: wordsList,
      vectors,
      unkVector: [0, 0, 0, 0, 0, -1],
    }),
  );
}
