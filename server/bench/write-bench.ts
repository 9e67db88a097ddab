import { engineChoice, withBenchServer, type BenchEngineChoice } from './bench-server.ts';
import { forkClient } from './client-process.ts';
import { percentile, round } from './locomo-metrics.ts';
import { startRssSampler } from './rss-sampler.ts';
import type { FromWriteClient, ToWriteClient } from './write-client.ts';

export interface WriteOptions extends BenchEngineChoice {
  records: number;
  concurrency: number;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/**
 * Write throughput: `rememberRecord` over HTTP with `concurrency` requests in flight (records_per_s
 * from the first write sent to the last acknowledged, p50/p95 of each write's round trip, both as the
 * client sees them), then derive: from the first write until the engine reports every Record derived
 * and indexed. The HTTP client runs in a child process (write-client.ts), so this process is the server
 * and the benchmark's bookkeeping: `peak_rss_mb` is its RSS sampled through the run and `server_cpu_s`
 * its CPU (user + system) from the first write until every Record is derived; `rss_measured` says so,
 * and `client_rss_mb` is the client's own peak.
 */
export async function runWrite(o: WriteOptions): Promise<void> {
  // Started before the server: the embedder loads while it starts.
  const memory = startRssSampler();
  try {
    await withBenchServer(engineChoice(o), async (bench) => {
      const client = await forkClient<ToWriteClient, FromWriteClient>(
        new URL('./write-client.ts', import.meta.url),
        'write client',
        o.progress,
      );
      try {
        const cpu = process.cpuUsage();
        const started = performance.now();
        client.send({
          type: 'start',
          url: bench.server.url,
          apiKey: bench.apiKey,
          brain: 'write',
          records: o.records,
          concurrency: o.concurrency,
        });
        const done = await client.next('done');
        await bench.server.engine.idle();
        const deriveS = (performance.now() - started) / 1000;
        const used = process.cpuUsage(cpu);
        const peakRssMb = memory.stop();
        const common = {
          records: o.records,
          concurrency: o.concurrency,
          engine: o.engine,
          embedder: bench.embedder,
          rss_measured: 'server process (HTTP client in a child process)',
          peak_rss_mb: peakRssMb,
          client_rss_mb: round(done.maxRssMb, 1),
          server_cpu_s: round((used.user + used.system) / 1e6, 2),
        };
        o.out({
          benchmark: 'write',
          scope: 'http',
          records_per_s: round(o.records / done.writeS, 1),
          p50_ms: percentile(done.ms, 50),
          p95_ms: percentile(done.ms, 95),
          ...common,
        });
        o.out({
          benchmark: 'write',
          scope: 'derive',
          records_per_s: round(o.records / deriveS, 1),
          ...common,
        });
      } finally {
        client.close();
      }
    });
  } finally {
    memory.stop();
  }
}
