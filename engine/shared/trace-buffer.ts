import type { Trace, TraceSummary } from '../contract/index.ts';

/** A bounded recent-only trace buffer: the oldest trace is evicted first; a restart clears all. */
export class TraceBuffer {
  private readonly traces = new Map<string, Trace>();

  constructor(private readonly capacity: number) {}

  add(trace: Trace): void {
    if (this.capacity <= 0) return;
    this.traces.set(trace.id, trace);
    while (this.traces.size > this.capacity) {
      const oldest = this.traces.keys().next().value as string;
      this.traces.delete(oldest);
    }
  }

  get(id: string): Trace | undefined {
    return this.traces.get(id);
  }

  /** Newest first. */
  list(limit: number): { data: TraceSummary[]; has_more: boolean } {
    const all = [...this.traces.values()].reverse();
    return { data: all.slice(0, limit).map(summarize), has_more: all.length > limit };
  }

  clear(): void {
    this.traces.clear();
  }
}

export function summarize(t: Trace): TraceSummary {
  return {
    id: t.id,
    object: 'trace',
    created_at: t.created_at,
    query: t.query,
    mode: t.mode,
    status: t.status,
    abstained: t.abstained,
    citations: t.citations.length,
    total_ms: Object.values(t.timings_ms).reduce((a, b) => a + b, 0),
    error_code: t.error?.code ?? null,
  };
}
