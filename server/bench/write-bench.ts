import { join } from 'node:path';
import { engineChoice, withBenchServer, type BenchEngineChoice } from './bench-server.ts';
import { forkClient } from './client-process.ts';
import { startExtraServers } from './extra-servers.ts';
import { percentile, round } from './locomo-metrics.ts';
import { startRssSampler } from './rss-sampler.ts';
import type { FromWriteClient, ToWriteClient } from './write-client.ts';
import type { WriteRoute } from './write-routing.ts';

export interface WriteOptions extends BenchEngineChoice {
  records: number;
  concurrency: number;
  /** Server processes on the postgres engine's one database (1: the benchmark's own only). */
  processes?: number;
  /** Brains the Records are spread over, one after another (1: one Brain, `write`). */
  brains?: number;
  /**
   * Which server a request goes to: `rotate`, each in turn; `brain`, always the one its Brain is given
   * to (Brain i to server i mod processes), as a proxy that hashes the Brain in the path would.
   */
  route?: WriteRoute;
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
 * and `client_rss_mb` and `client_cpu_s` are the client's own peak and CPU while it sends. With `processes` above 1 (postgres engine, a database
 * URL), that many servers share the database: the benchmark's own and more `mnemo serve` processes;
 * the client sends its requests to each in turn, `records_per_s` counts them all, `server_cpu_s` sums
 * every server's CPU, and derivation is done when the queue in the database is empty. With `brains`
 * above 1 the Records go to that many Brains in turn, and `route` says which server each request goes
 * to.
 */
export async function runWrite(o: WriteOptions): Promise<void> {
  // Started before the server: the embedder loads while it starts.
  const memory = startRssSampler();
  try {
    const processes = o.processes ?? 1;
    if (processes > 1 && (o.engine !== 'postgres' || !o.databaseUrl))
      throw new Error('--processes above 1 needs --engine postgres and --database-url');
    const brains = o.brains ?? 1;
    const route = o.route ?? 'rotate';
    await withBenchServer(engineChoice(o), async (bench) => {
      const extra =
        processes > 1
          ? await startExtraServers(processes - 1, o.databaseUrl!, (i) =>
              join(bench.dataDir, `server-${i + 2}`),
            )
          : null;
      try {
        const client = await forkClient<ToWriteClient, FromWriteClient>(
          new URL('./write-client.ts', import.meta.url),
          'write client',
          o.progress,
        );
        try {
          const cpu = process.cpuUsage();
          const extraCpuS = extra?.cpuS() ?? 0;
          const started = performance.now();
          client.send({
            type: 'start',
            urls: [bench.server.url, ...(extra?.urls ?? [])],
            apiKey: bench.apiKey,
            brains: brains === 1 ? ['write'] : Array.from({ length: brains }, (_, i) => `write-${i + 1}`),
            route,
            records: o.records,
            concurrency: o.concurrency,
          });
          const done = await client.next('done');
          await bench.server.engine.idle();
          const deriveS = (performance.now() - started) / 1000;
          const used = process.cpuUsage(cpu);
          const usedExtraS = (extra?.cpuS() ?? 0) - extraCpuS;
          const peakRssMb = memory.stop();
          const common = {
            records: o.records,
            concurrency: o.concurrency,
            processes,
            brains,
            route,
            engine: o.engine,
            embedder: bench.embedder,
            rss_measured: `${processes > 1 ? 'first ' : ''}server process (HTTP client in a child process)`,
            peak_rss_mb: peakRssMb,
            client_rss_mb: round(done.maxRssMb, 1),
            client_cpu_s: round(done.cpuS, 2),
            server_cpu_s: round((used.user + used.system) / 1e6 + usedExtraS, 2),
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
      } finally {
        await extra?.close();
      }
    });
  } finally {
    memory.stop();
  }
}
