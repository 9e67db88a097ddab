import { round } from './locomo-metrics.ts';

/**
 * The process's resident memory sampled through a run, stage by stage: each stage's peak, and what
 * `process.memoryUsage()` says at its end (V8 heap, external memory and array buffers beside the total),
 * so a figure can be traced to who holds it. The OS's own peak (`maxRSS`) is kept once per process and
 * cannot tell one stage from the next, nor one run from the one before it in the same process.
 */
export interface RssSampler {
  /** Ends the current stage (naming it) and starts the next. */
  stage(name: string): void;
  /** Stops sampling; the peak over every stage so far, in MB. */
  stop(): number;
  /** Per stage: its peak RSS and the memoryUsage() breakdown at its end, in MB. */
  readonly stages: Record<string, Record<string, number>>;
}

const mb = (bytes: number) => round(bytes / 2 ** 20, 1);

export function startRssSampler(everyMs = 50): RssSampler {
  let stagePeak = process.memoryUsage.rss();
  let peak = stagePeak;
  const sample = () => {
    const rss = process.memoryUsage.rss();
    if (rss > stagePeak) stagePeak = rss;
    if (rss > peak) peak = rss;
  };
  const timer = setInterval(sample, everyMs);
  // A benchmark that is done must not wait for the sampler.
  timer.unref();
  const stages: Record<string, Record<string, number>> = {};
  return {
    stages,
    stage(name) {
      sample();
      const u = process.memoryUsage();
      stages[name] = {
        peak_rss: mb(stagePeak),
        rss: mb(u.rss),
        heap_used: mb(u.heapUsed),
        heap_total: mb(u.heapTotal),
        external: mb(u.external),
        array_buffers: mb(u.arrayBuffers),
      };
      stagePeak = u.rss;
    },
    stop() {
      clearInterval(timer);
      sample();
      return mb(peak);
    },
  };
}
