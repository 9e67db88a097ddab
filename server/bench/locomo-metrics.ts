/** One scored question: its category, its evidence, and the distinct turns retrieved, best first. */
export interface ScoredQuestion {
  category: number;
  evidence: readonly string[];
  ranked: readonly string[];
}

export interface RecallAt {
  frac: number;
  any: number;
  all: number;
}

/** frac@k, any@k and all@k of one question (LoCoMo's definitions, data README). */
export function recallAt(q: ScoredQuestion, k: number): RecallAt {
  const top = new Set(q.ranked.slice(0, k));
  const hit = q.evidence.filter((e) => top.has(e)).length;
  return { frac: hit / q.evidence.length, any: hit > 0 ? 1 : 0, all: hit === q.evidence.length ? 1 : 0 };
}

/** Averages of frac/any/all at each k over a set of questions, keyed `frac@5`, `any@5`, `all@5`, ... */
export function aggregate(
  questions: readonly ScoredQuestion[],
  ks: readonly number[],
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of ks) {
    let frac = 0;
    let any = 0;
    let all = 0;
    for (const q of questions) {
      const r = recallAt(q, k);
      frac += r.frac;
      any += r.any;
      all += r.all;
    }
    const n = questions.length || 1;
    out[`frac@${k}`] = round(frac / n);
    out[`any@${k}`] = round(any / n);
    out[`all@${k}`] = round(all / n);
  }
  return out;
}

/** Nearest-rank percentile of unsorted samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const s = [...samples].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return round(s[i]!, 3);
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
