/**
 * Fixed-window (not sliding) per-key counter, per process: the counter resets at each minute boundary.
 * Windows of keys not seen in the current minute are dropped, so memory stays bounded by active keys.
 */
export class FixedWindowLimiter {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns null when allowed, else the seconds until the window resets. */
  hit(key: string): number | null {
    if (this.perMinute <= 0) return null;
    const t = this.now();
    const window = Math.floor(t / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n <= this.perMinute) return null;
    return Math.max(1, Math.ceil(((window + 1) * 60_000 - t) / 1000));
  }
}
