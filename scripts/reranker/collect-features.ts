/**
 * Training data for the learned reranker: runs every question of a LoCoMo-format file (categories 1-4)
 * through an engine in process (the local engine; ENGINE=postgres: the PostgreSQL engine over PGlite with
 * pgvector, whose lanes score with ts_rank and pgvector), with a reranker that only records the features of the best
 * candidates and leaves the fusion's order alone. Writes one CSV row per (question, candidate), in the
 * fusion's order: question id, conversation, category, number of evidence turns, label (the candidate is
 * evidence), its thread (a number per distinct thread of the question, -1 for none) and the row numbers
 * within the question of its thread neighbours at -2, -1, +1, +2 among the candidates (-1 for none), as
 * the engine hands them to the reranker (stage 2 is computed from them), then the features in
 * rerankFeatureNames order.
 *
 *   node --import tsx scripts/reranker/collect-features.ts ../shared/data/locomo/locomo-dev.json /tmp/fast.csv
 *   RERANK_MODE=thorough node --import tsx scripts/reranker/collect-features.ts ... /tmp/thorough.csv
 *   TURNS_AS=documents ... (turns stored as dated documents, as `bench locomo --turns-as documents` does)
 *   ENGINE=postgres ... (features of the PostgreSQL engine's backends, for ENGINE=postgres train.py)
 *
 * Then scripts/reranker/train.py (docs/decisions/retrieval.md, "Learned reranker").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEngine } from '../../engine/local/index.ts';
import { openEmbeddedPostgres, openPostgresEngine } from '../../engine/index.ts';
import { rerankFeatureNames } from '../../engine/retrieve/rerank-features.ts';
import type { RerankCandidates } from '../../engine/retrieve/rerank-features.ts';
import type { Reranker } from '../../engine/retrieve/reranker.ts';
import {
  loadLocomo,
  locomoBrainId,
  locomoBudgetTokens,
  locomoTurnForms,
  locomoTurnRecord,
} from '../../server/bench/locomo-data.ts';

const [data, out] = process.argv.slice(2);
if (!data || !out) {
  console.error('usage: collect-features.ts LOCOMO_JSON OUT_CSV');
  process.exit(2);
}
const depth = Number(process.env.RERANK_DEPTH ?? 150);
// A typo here would silently collect another training set than the one meant: refuse unknown values.
function choice<T extends string>(name: string, allowed: readonly T[]): T {
  const value = process.env[name] ?? allowed[0]!;
  if (!(allowed as readonly string[]).includes(value)) {
    console.error(`${name}: "${value}" is not one of ${allowed.join(', ')}`);
    process.exit(2);
  }
  return value as T;
}
const mode = choice('RERANK_MODE', ['fast', 'thorough'] as const);
const form = choice('TURNS_AS', locomoTurnForms);
const engineKind = choice('ENGINE', ['local', 'postgres'] as const);
let captured: RerankCandidates | null = null;
const recorder: Reranker = {
  id: 'feature-recorder',
  depth,
  score(c) {
    captured = c;
    return { scores: c.ids.map((_, i) => -i) };
  },
};
const dir = mkdtempSync(join(tmpdir(), 'mnemo-rerank-'));
const shared = {
  embedder: { provider: 'glove-sif', dataDir: dir },
  // LoCoMo's dates carry no zone; the benchmark reads them as UTC too.
  timeZone: 'UTC',
  reranker: recorder,
} as const;
// The same engines `bench locomo` serves (--engine postgres with no URL: PGlite with pgvector, hosted).
const engine =
  engineKind === 'postgres'
    ? (await openPostgresEngine({ open: () => openEmbeddedPostgres() }, shared)).engine
    : await createLocalEngine({ ...shared, dataDir: dir, dbKey: 'k'.repeat(64), durability: 'normal' });
const tenant = { project: 'rerank', env: 'test' } as const;
const lines = [
  [
    'qid',
    'conv',
    'cat',
    'nev',
    'label',
    'thread',
    'i_nb-2',
    'i_nb-1',
    'i_nb1',
    'i_nb2',
    ...rerankFeatureNames,
  ].join(','),
];
let qid = 0;
try {
  for (const conv of loadLocomo(data)) {
    const brain = locomoBrainId(conv);
    await engine.createBrain(tenant, { id: brain, name: conv.sampleId });
    const dia = new Map<string, string>();
    for (const t of conv.turns) {
      const { record } = await engine.rememberRecord(tenant, brain, locomoTurnRecord(t, form), {});
      dia.set(record.id, t.diaId);
    }
    await engine.idle();
    for (const q of conv.questions.filter((x) => x.category <= 4)) {
      captured = null;
      await engine.createContext(
        tenant,
        brain,
        { query: q.question, mode, budget: { tokens: locomoBudgetTokens } },
        { requestId: `q${qid}` },
      );
      const got = captured as RerankCandidates | null;
      const threadNo = new Map<string, number>();
      for (const [i, id] of (got?.ids ?? []).entries()) {
        const label = q.evidence.includes(dia.get(id) ?? '') ? 1 : 0;
        const t = got!.threads[i]!;
        if (t !== null && !threadNo.has(t)) threadNo.set(t, threadNo.size);
        const thread = t === null ? -1 : threadNo.get(t)!;
        lines.push(
          [
            qid,
            conv.sampleId,
            q.category,
            q.evidence.length,
            label,
            thread,
            ...got!.neighbours[i]!,
            ...got!.rows[i]!,
          ].join(','),
        );
      }
      qid++;
    }
    console.error(`${conv.sampleId}: ${qid} questions so far`);
  }
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(out, lines.join('\n') + '\n');
console.error(`${lines.length - 1} rows, ${qid} questions -> ${out}`);
