import { appendFileSync, writeFileSync } from 'node:fs';
import type { ContextReady } from '../../engine/contract/index.ts';
import { engineChoice, mapLimit, startBenchServer, type BenchEngineChoice } from './bench-server.ts';
import {
  loadLocomo,
  locomoBrainId,
  locomoBudgetTokens,
  locomoTurnRecord,
  type LocomoTurnForm,
} from './locomo-data.ts';
import { aggregate, percentile, round, type ScoredQuestion } from './locomo-metrics.ts';

export interface LocomoOptions extends BenchEngineChoice {
  data: string;
  ks: number[];
  mode?: 'fast' | 'thorough' | undefined;
  /** Only the first N conversations (quick checks). */
  limit?: number | undefined;
  /** How turns are stored (locomo-data.ts): messages (default) or documents. */
  turnsAs?: LocomoTurnForm | undefined;
  /** Writes one JSON line per question (evidence, the ranked turns, hits) to this file, for error analysis. */
  dump?: string | undefined;
  out: (line: Record<string, unknown>) => void;
  progress: (line: string) => void;
}

/** The cut-offs whose fields the output must always have (cli-and-harness.md, Benchmark output). */
const fixedCutOffs = [5, 10, 25];

/** The requested cut-offs and the fixed ones, ascending: `--k 3` adds frac@3, it removes nothing. */
export const cutOffs = (ks: readonly number[]): number[] =>
  [...new Set([...fixedCutOffs, ...ks])].sort((a, b) => a - b);

/**
 * LoCoMo retrieval: one Brain per conversation, one Record per turn (a `message`, or with turnsAs
 * `documents` a dated note), every question sent to
 * createContext over HTTP; a turn counts as retrieved at k when its Record is among the first k
 * distinct Records the Context cites.
 */
export async function runLocomo(o: LocomoOptions): Promise<void> {
  const convs = loadLocomo(o.data).slice(0, o.limit ?? Infinity);
  const bench = await startBenchServer({
    ...engineChoice(o),
    log: undefined,
  });
  // `abstained`: the Context abstained, for any reason.
  const scored: Array<ScoredQuestion & { ms: number; abstained: boolean }> = [];
  let ingestMs = 0;
  let embedder = 'none';
  if (o.dump) writeFileSync(o.dump, '');
  try {
    const { client } = bench;
    for (const [ci, conv] of convs.entries()) {
      const brain = locomoBrainId(conv);
      await client.createBrain({ id: brain, name: `LoCoMo ${conv.sampleId}` });
      const byRecord = new Map<string, string>();
      const started = performance.now();
      let watermark: string | null = null;
      // Turns go in session order, a few in flight: the order of ids does not matter, occurred_at does.
      const written = await mapLimit(conv.turns, 4, (t) =>
        client.rememberRecord(brain, locomoTurnRecord(t, o.turnsAs)),
      );
      written.forEach((w, i) => {
        byRecord.set(w.record.id, conv.turns[i]!.diaId);
        watermark = w.watermark ?? watermark;
      });
      await bench.server.engine.idle();
      ingestMs += performance.now() - started;
      for (const q of conv.questions) {
        const ask = () =>
          client.createContext(
            brain,
            { query: q.question, mode: o.mode ?? 'fast', budget: { tokens: locomoBudgetTokens } },
            watermark ? { watermark } : {},
          );
        const t0 = performance.now();
        let res = await ask();
        for (let tries = 0; res.status === 202 && tries < 100; tries++) {
          await new Promise((r) => setTimeout(r, 50));
          res = await ask();
        }
        const ms = performance.now() - t0;
        const ctx = res.context as ContextReady;
        const ranked: string[] = [];
        for (const c of ctx.citations ?? []) {
          const dia = byRecord.get(c.record_id);
          if (dia && !ranked.includes(dia)) ranked.push(dia);
        }
        scored.push({ category: q.category, evidence: q.evidence, ranked, ms, abstained: !!ctx.abstained });
        if (o.dump) {
          const top = new Set(ranked.slice(0, 10));
          const row = {
            sample: conv.sampleId,
            category: q.category,
            question: q.question,
            evidence: q.evidence,
            missed_at_10: q.evidence.filter((e) => !top.has(e)),
            ranked: ranked.slice(0, 25),
            abstained: ctx.abstained?.reason ?? null,
            ms: round(ms, 2),
          };
          appendFileSync(o.dump, `${JSON.stringify(row)}\n`);
        }
      }
      o.progress(
        `locomo: ${conv.sampleId} (${ci + 1}/${convs.length}): ${conv.turns.length} turns, ${conv.questions.length} questions`,
      );
    }
  } finally {
    embedder = bench.embedder;
    await bench.close();
  }
  const common = {
    ingest_s: round(ingestMs / 1000, 2),
    embedder,
    engine: o.engine,
    mode: o.mode ?? 'fast',
    turns_as: o.turnsAs ?? 'messages',
  };
  const line = (scope: string, qs: Array<ScoredQuestion & { ms: number; abstained: boolean }>) => {
    const ms = qs.map((q) => q.ms);
    const latency = { p50_ms: percentile(ms, 50), p95_ms: percentile(ms, 95), p99_ms: percentile(ms, 99) };
    o.out({
      benchmark: 'locomo',
      scope,
      questions: qs.length,
      // How many Contexts abstained (any reason): every LoCoMo question has its evidence in the Brain.
      abstained: qs.filter((q) => q.abstained).length,
      ...aggregate(qs, cutOffs(o.ks)),
      ...latency,
      ...common,
    });
  };
  line(
    'cat1-4',
    scored.filter((q) => q.category >= 1 && q.category <= 4),
  );
  for (const cat of [1, 2, 3, 4, 5])
    line(
      `cat${cat}`,
      scored.filter((q) => q.category === cat),
    );
}
