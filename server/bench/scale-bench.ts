import { engineChoice, withBenchServer, type BenchEngineChoice } from './bench-server.ts';
import { forkClient } from './client-process.ts';
import { percentile, round } from './locomo-metrics.ts';
import { startRssSampler } from './rss-sampler.ts';
import type { FromScaleClient, ToScaleClient } from './scale-client.ts';

/** Untimed Contexts before the timed ones. */
const warmUpQueries = 20;

export interface ScaleOptions extends BenchEngineChoice {
  records: number;
  queries: number;
  /** Messages per thread; 0: none (the corpus of earlier rounds' figures). */
  threadSize: number;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/**
 * A Brain of N synthetic Records written over HTTP, then `fast` createContext timed over HTTP (after a
 * short warm-up), with the server's peak RSS. The HTTP client runs in a child process
 * (scale-client.ts), so this process is the server and the benchmark's bookkeeping: `rss_mb` is its
 * peak as the OS keeps it, `peak_rss_mb` sampled through the run and `rss_mb_by_stage` (the peak while
 * writing, while derivation and indexing finish, and while querying; the memoryUsage() breakdown of
 * each stage goes to progress); `rss_measured` says so, and `client_rss_mb` is the client's own peak.
 * Beside them: what the in-memory vector copies hold (`vector_copies_mb`, the engine's
 * `info.vectorCopyBytes`), what the in-memory copy of the lexical index holds (`lexical_copy_mb`,
 * `info.lexicalCopyBytes`; typed arrays) and how many lexical searches it answered
 * (`lexical_copy_answers`; the others went to FTS5), and the p50/p95 of every Trace stage and lane
 * (`stages_ms`) and how many Contexts each ordering ran for (`ordered_by`: the Trace's fusion.method,
 * which says whether the reranker's second stage ran), read after each timed call.
 * `server_cpu_ms_per_query` is the server process's CPU (all its threads) over the querying, per Context
 * with its Trace read (the warm-up's included): on a shared machine it moves less than the times do.
 */
export async function runScale(o: ScaleOptions): Promise<void> {
  // Started before the server: the embedder loads while it starts.
  const memory = startRssSampler();
  try {
    await withBenchServer(engineChoice(o), async (bench) => {
      memory.stage('start');
      const client = await forkClient<ToScaleClient, FromScaleClient>(
        new URL('./scale-client.ts', import.meta.url),
        'scale client',
        o.progress,
      );
      try {
        const started = performance.now();
        client.send({
          type: 'start',
          url: bench.server.url,
          apiKey: bench.apiKey,
          brain: 'scale',
          records: o.records,
          queries: o.queries,
          warmUp: warmUpQueries,
          threadSize: o.threadSize,
        });
        await client.next('written');
        memory.stage('write');
        await bench.server.engine.idle();
        const ingestS = (performance.now() - started) / 1000;
        memory.stage('derive_and_index');
        o.progress(`scale: ingest ${ingestS.toFixed(1)} s; querying`);
        const cpu = process.cpuUsage();
        client.send({ type: 'query' });
        const done = await client.next('done');
        const queryCpu = process.cpuUsage(cpu);
        memory.stage('queries');
        const peakRssMb = memory.stop();
        o.progress(`scale: memory by stage (MB) ${JSON.stringify(memory.stages)}`);
        const { ms } = done;
        o.out({
          benchmark: 'scale',
          scope: 'context-fast',
          records: o.records,
          queries: o.queries,
          thread_size: o.threadSize,
          p50_ms: percentile(ms, 50),
          p95_ms: percentile(ms, 95),
          p99_ms: percentile(ms, 99),
          stages_ms: Object.fromEntries(
            done.stages.map(([name, v]) => [name, { p50: percentile(v, 50), p95: percentile(v, 95) }]),
          ),
          ordered_by: Object.fromEntries(done.orderedBy),
          rss_measured: 'server process (HTTP client in a child process)',
          rss_mb: round(process.resourceUsage().maxRSS / 1024, 1),
          peak_rss_mb: peakRssMb,
          rss_mb_by_stage: Object.fromEntries(
            Object.entries(memory.stages).map(([k, v]) => [k, v['peak_rss']]),
          ),
          client_rss_mb: round(done.maxRssMb, 1),
          server_cpu_ms_per_query: round(
            (queryCpu.user + queryCpu.system) / 1000 / (o.queries + warmUpQueries),
            2,
          ),
          vector_copies_mb: round((bench.server.engine.info.vectorCopyBytes ?? 0) / 2 ** 20, 1),
          lexical_copy_mb: round((bench.server.engine.info.lexicalCopyBytes ?? 0) / 2 ** 20, 1),
          lexical_copy_answers: bench.server.engine.info.lexicalCopyAnswers ?? 0,
          ingest_s: round(ingestS, 2),
          embedder: bench.embedder,
          engine: o.engine,
        });
      } finally {
        client.close();
      }
    });
  } finally {
    memory.stop();
  }
}
