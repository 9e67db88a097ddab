/**
 * A queue between one producer and several consumers that holds at most `capacity` items: the producer
 * waits for room, so reading an export never gets further ahead of sending than that. `close()` ends it
 * once drained; `abort()` ends it now, dropping what waits and releasing a producer that is waiting.
 */
export class BoundedQueue<T> {
  private readonly items: T[] = [];
  private readonly takers: ((item: T | undefined) => void)[] = [];
  private readonly putters: (() => void)[] = [];
  private ended = false;

  constructor(private readonly capacity: number) {}

  /** False when the queue was aborted or closed: nothing more will be taken. */
  async put(item: T): Promise<boolean> {
    while (!this.ended && this.takers.length === 0 && this.items.length >= this.capacity)
      await new Promise<void>((r) => this.putters.push(r));
    if (this.ended) return false;
    const taker = this.takers.shift();
    if (taker) taker(item);
    else this.items.push(item);
    return true;
  }

  /** The next item, or undefined once the queue has ended and nothing is left. */
  async take(): Promise<T | undefined> {
    const item = this.items.shift();
    if (item !== undefined) {
      this.putters.shift()?.();
      return item;
    }
    if (this.ended) return undefined;
    return new Promise((r) => this.takers.push(r));
  }

  close(): void {
    this.ended = true;
    if (this.items.length === 0) for (const t of this.takers.splice(0)) t(undefined);
    for (const p of this.putters.splice(0)) p();
  }

  abort(): void {
    this.items.length = 0;
    this.close();
  }
}
