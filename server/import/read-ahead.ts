/**
 * `read(x)` for each x of `inputs`, up to `limit` of them at once, yielded in the order of `inputs`
 * (a null result is left out). Reading a note is a few file-system calls, each a wait on the thread
 * pool: one after the other, an import of 3,000 notes spent most of its reading time waiting.
 *
 * Nothing changes for the one who iterates: results come in input order; a `read` that throws, or an
 * `inputs` that throws, throws when its turn comes, after everything before it was yielded; stopping
 * early (a cancel) stops asking `inputs` for more, and the reads under way are waited for and dropped,
 * so nothing is still reading when the loop has ended (an upload's temporary copy is removed next).
 */
export async function* readAhead<T, R>(
  inputs: AsyncIterable<T> | Iterable<T>,
  limit: number,
  read: (x: T) => Promise<R | null>,
): AsyncGenerator<R> {
  const source = Symbol.asyncIterator in inputs ? inputs[Symbol.asyncIterator]() : toAsync(inputs);
  const pending: Promise<R | null>[] = [];
  let ended = false;
  let failure: { error: unknown } | null = null;
  const fill = async () => {
    while (!ended && failure === null && pending.length < limit) {
      let next: IteratorResult<T>;
      try {
        next = await source.next();
      } catch (error) {
        failure = { error };
        return;
      }
      if (next.done) {
        ended = true;
        return;
      }
      const p = read(next.value);
      // Awaited in its turn; until then a rejection must not count as unhandled.
      p.catch(() => {});
      pending.push(p);
    }
  };
  try {
    for (;;) {
      await fill();
      const p = pending.shift();
      if (p === undefined) break;
      const r = await p;
      if (r !== null) yield r;
    }
    if (failure !== null) throw (failure as { error: unknown }).error;
  } finally {
    await Promise.allSettled(pending);
    if (!ended) await source.return?.();
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
