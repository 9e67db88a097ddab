import { mapLimit, withBenchServer, type BenchEngine } from './bench-server.ts';
import { percentile, round } from './locomo-metrics.ts';
import { startRssSampler } from './rss-sampler.ts';
import { syntheticRecord } from './synthetic.ts';

export interface WriteOptions {
  records: number;
  concurrency: number;
  engine: BenchEngine;
  embeddingModel?: string | undefined;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/**
 * Write throughput: `rememberRecord` over HTTP with a few requests in flight (records_per_s, p95 of
 * each write), then derive: from the first write until the engine reports every Record derived; both
 * with the process's peak RSS sampled through the run (`peak_rss_mb`; server and benchmark share it).
 */
export async function runWrite(o: WriteOptions): Promise<void> {
  // Started before the server: the embedder loads while it starts.
  const memory = startRssSampler();
  try {
    await withBenchServer({ engine: o.engine, embeddingModel: o.embeddingModel }, async (bench) => {
      const { client } = bench;
      await client.createBrain({ id: 'write', name: 'write benchmark' });
      const ids = Array.from({ length: o.records }, (_, i) => i);
      const ms: number[] = [];
      const started = performance.now();
      await mapLimit(ids, o.concurrency, async (i) => {
        const body = syntheticRecord(i, 3);
        const t0 = performance.now();
        await client.rememberRecord('write', body);
        ms.push(performance.now() - t0);
      });
      const writeS = (performance.now() - started) / 1000;
      await bench.server.engine.idle();
      const deriveS = (performance.now() - started) / 1000;
      const peakRssMb = memory.stop();
      const common = {
        records: o.records,
        concurrency: o.concurrency,
        engine: o.engine,
        embedder: bench.embedder,
        peak_rss_mb: peakRssMb,
      };
      o.out({
        benchmark: 'write',
        scope: 'http',
        records_per_s: round(o.records / writeS, 1),
        p50_ms: percentile(ms, 50),
        p95_ms: percentile(ms, 95),
        ...common,
      });
      o.out({ benchmark: 'write', scope: 'derive', records_per_s: round(o.records / deriveS, 1), ...common });
    });
  } finally {
    memory.stop();
  }
}
