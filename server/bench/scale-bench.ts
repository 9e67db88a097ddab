import { mapLimit, withBenchServer, type BenchEngine } from './bench-server.ts';
import { percentile, round } from './locomo-metrics.ts';
import { startRssSampler } from './rss-sampler.ts';
import { syntheticQuery, syntheticRecord } from './synthetic.ts';

export interface ScaleOptions {
  records: number;
  queries: number;
  /** Messages per thread; 0: none (the corpus of earlier rounds' figures). */
  threadSize: number;
  engine: BenchEngine;
  embeddingModel?: string | undefined;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/**
 * A Brain of N synthetic Records written over HTTP, then `fast` createContext timed over HTTP (after a
 * short warm-up), with the process's peak RSS (server and benchmark share the process): `rss_mb` as the
 * OS keeps it, `peak_rss_mb` sampled through the run and `rss_mb_by_stage` (the peak while writing,
 * while derivation and indexing finish, and while querying; the memoryUsage() breakdown of each stage
 * goes to progress), what the
 * in-memory vector copies hold (`vector_copies_mb`, the engine's `info.vectorCopyBytes`), what the
 * in-memory copy of the lexical index holds (`lexical_copy_mb`, `info.lexicalCopyBytes`; typed arrays) and
 * how many lexical searches it answered (`lexical_copy_answers`; the others went to FTS5), and the p50/p95 of
 * every Trace stage and lane (`stages_ms`) and how many Contexts each ordering ran for (`ordered_by`: the
 * Trace's fusion.method, which says whether the reranker's second stage ran), read after each timed call.
 */
export async function runScale(o: ScaleOptions): Promise<void> {
  // Started before the server: the embedder loads while it starts.
  const memory = startRssSampler();
  try {
    await withBenchServer({ engine: o.engine, embeddingModel: o.embeddingModel }, async (bench) => {
      const { client } = bench;
      memory.stage('start');
      await client.createBrain({ id: 'scale', name: 'scale benchmark' });
      const started = performance.now();
      const batch = 1_000;
      for (let from = 0; from < o.records; from += batch) {
        const ids = Array.from({ length: Math.min(batch, o.records - from) }, (_, j) => from + j);
        await mapLimit(ids, 8, (i) => client.rememberRecord('scale', syntheticRecord(i, 1, o.threadSize)));
        o.progress(`scale: ${from + ids.length}/${o.records} records written`);
      }
      memory.stage('write');
      await bench.server.engine.idle();
      const ingestS = (performance.now() - started) / 1000;
      memory.stage('derive_and_index');
      o.progress(`scale: ingest ${ingestS.toFixed(1)} s; querying`);
      for (let i = 0; i < 20; i++)
        await client.createContext('scale', { query: syntheticQuery(100_000 + i), mode: 'fast' });
      const ms: number[] = [];
      // Where the time goes: each Context's Trace (read after the timed call) has its stage and lane times.
      const stages = new Map<string, number[]>();
      // How each Context was ordered (fusion.method): whether the reranker, and its stage 2, ran.
      const orderedBy = new Map<string, number>();
      const add = (name: string, v: number) => {
        const seen = stages.get(name);
        if (seen) seen.push(v);
        else stages.set(name, [v]);
      };
      for (let i = 0; i < o.queries; i++) {
        const t0 = performance.now();
        const ctx = await client.createContext('scale', { query: syntheticQuery(i), mode: 'fast' });
        ms.push(performance.now() - t0);
        const trace = await client.getTrace('scale', ctx.context.id);
        for (const [name, v] of Object.entries(trace.timings_ms)) add(name, v);
        for (const lane of trace.lanes) add(`lane:${lane.name}`, lane.ms);
        orderedBy.set(trace.fusion.method, (orderedBy.get(trace.fusion.method) ?? 0) + 1);
      }
      memory.stage('queries');
      const peakRssMb = memory.stop();
      o.progress(`scale: memory by stage (MB) ${JSON.stringify(memory.stages)}`);
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
          [...stages].map(([name, v]) => [name, { p50: percentile(v, 50), p95: percentile(v, 95) }]),
        ),
        ordered_by: Object.fromEntries(orderedBy),
        rss_mb: round(process.resourceUsage().maxRSS / 1024, 1),
        peak_rss_mb: peakRssMb,
        rss_mb_by_stage: Object.fromEntries(
          Object.entries(memory.stages).map(([k, v]) => [k, v['peak_rss']]),
        ),
        vector_copies_mb: round((bench.server.engine.info.vectorCopyBytes ?? 0) / 2 ** 20, 1),
        lexical_copy_mb: round((bench.server.engine.info.lexicalCopyBytes ?? 0) / 2 ** 20, 1),
        lexical_copy_answers: bench.server.engine.info.lexicalCopyAnswers ?? 0,
        ingest_s: round(ingestS, 2),
        embedder: bench.embedder,
        engine: o.engine,
      });
    });
  } finally {
    memory.stop();
  }
}
