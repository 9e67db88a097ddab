/** The items whose keys an import keeps to skip a duplicate (SeenKeys), unless told otherwise. */
export const duplicateWindow = 100_000;

/**
 * The Idempotency-Keys of the items an import read last, each with the name of the item that had it (a
 * later twin's skip names it), at most `capacity` of them: the oldest is forgotten first. Kept for every
 * item of a run, they grew with the export (a 500,000-message chat's held ~80 MB, and a dry run failed
 * late in an 80 MB heap). A twin read after its first is forgotten is sent under the same key, and the
 * store answers it with the Record it already holds (a replay, counted unchanged): nothing is stored
 * twice. Only the summary differs, which counts it unchanged (a dry run: to send) rather than skipped.
 */
export class SeenKeys {
  readonly #labels = new Map<string, string>();
  /**
   * The keys kept, in a ring: the oldest is at `#next` once it is full. Asking the Map for its first key
   * instead walks past every entry deleted since it last compacted: 500,000 items took 52 s, not 4 s.
   */
  readonly #ring: string[] = [];
  #next = 0;

  constructor(readonly capacity = duplicateWindow) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity ${capacity}: at least 1`);
  }

  get size(): number {
    return this.#labels.size;
  }

  /** The name of the item read with KEY, while it is kept. */
  twinOf(key: string): string | undefined {
    return this.#labels.get(key);
  }

  /** KEY was read, for the item named LABEL (a key kept already keeps its first item). */
  add(key: string, label: string): void {
    if (this.#labels.has(key)) return;
    if (this.#ring.length < this.capacity) this.#ring.push(key);
    else {
      this.#labels.delete(this.#ring[this.#next]!);
      this.#ring[this.#next] = key;
      this.#next = (this.#next + 1) % this.capacity;
    }
    this.#labels.set(key, label);
  }
}
