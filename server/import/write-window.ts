/**
 * Up to `limit` writes under way at once, started in the order given. The local engine commits writes
 * that arrive together in one transaction (engine/adapters/sqlite/write-batches.ts), so an import that waited for
 * each item before sending the next paid a disk flush per item.
 *
 * A write that throws is remembered, and thrown by the next `add` or by `settle`; the writes already
 * under way still finish first, so their results are counted before the import stops.
 */
export class WriteWindow {
  private readonly underWay = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(private readonly limit: number) {}

  /** Starts `write` once there is room (when full, everything under way finishes first). */
  async add(write: () => Promise<void>): Promise<void> {
    if (this.underWay.size >= this.limit) await this.settle();
    this.throwFailure();
    const p: Promise<void> = write()
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.underWay.delete(p));
    this.underWay.add(p);
  }

  /** Waits for every write under way; throws the first failure, if any. */
  async settle(): Promise<void> {
    while (this.underWay.size > 0) await Promise.all(this.underWay);
    this.throwFailure();
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }
}
