import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../contract/index.ts';
import type { Engine, Tenant } from '../types.ts';
import { createLocalEngine, type LocalEngineOptions } from '../local/index.ts';
import { compileGbdt, gbdtMargin, validateGbdt, type GbdtModel } from '../core/retrieve/gbdt.ts';
import {
  rerankFeatureNames,
  stackFeatureNames,
  stackFeatures,
  stackMissing,
  type RerankCandidates,
} from './rerank-features.ts';
import {
  createGbdtReranker,
  readShippedModelFile,
  shippedReranker,
  validateStages,
  type Reranker,
} from './reranker.ts';
import { postgresBackends, sqliteBackends, type RetrievalBackends } from '../core/retrieve/backends.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };

async function engineWith(extra: Partial<LocalEngineOptions>): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-rerank-'));
  const engine = await createLocalEngine({
    dataDir: dir,
    dbKey: 'rerank-test-key',
    embedder: { provider: 'hash', dataDir: dir },
    ...extra,
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return engine;
}

const msg = (text: string, speaker: string, at: string, thread: string): RecordCreate => ({
  content: { kind: 'message', text, speaker, thread },
  occurred_at: at,
});

/** A thread where the answer shares no word with the question and follows the message that does. */
async function conversation(engine: Engine): Promise<string[]> {
  await engine.createBrain(tenant, { id: 'b' });
  const ids: string[] = [];
  for (const body of [
    msg('Morning! Any plans for the weekend?', 'Gina', '2023-05-01T09:00:00Z', 's1'),
    msg('I finally opened my clothing store downtown yesterday!', 'Jon', '2023-05-01T09:01:00Z', 's1'),
    msg('Congrats! What made you pick that spot?', 'Gina', '2023-05-01T09:02:00Z', 's1'),
    msg('Foot traffic, and the rent was fair.', 'Jon', '2023-05-01T09:03:00Z', 's1'),
    msg('My dance class ran late, the store can wait.', 'Gina', '2023-06-01T18:00:00Z', 's2'),
  ]) {
    ids.push((await engine.rememberRecord(tenant, 'b', body, {})).record.id);
  }
  await engine.idle();
  return ids;
}

const ask = async (engine: Engine, query: string) =>
  (await engine.createContext(
    tenant,
    'b',
    { query, budget: { tokens: 8000 } },
    { requestId: 'req_test' },
  )) as ContextReady;

/** Two trees over features [a, b]: a < 0.5 ? (b < 2 ? 1 : 2) : 3, and b < 1 ? -1 : 0.25; margin +0.5. */
const tiny: GbdtModel = {
  format: 'mnemo-gbdt/1',
  features: ['a', 'b'],
  base_margin: 0.5,
  trees: [
    [
      { feature: 0, threshold: 0.5, yes: 1, no: 4 },
      { feature: 1, threshold: 2, yes: 2, no: 3 },
      { leaf: 1 },
      { leaf: 2 },
      { leaf: 3 },
    ],
    [{ feature: 1, threshold: 1, yes: 1, no: 2 }, { leaf: -1 }, { leaf: 0.25 }],
  ],
};

describe('learned reranker', () => {
  it('walks every tree: left when the feature is below the threshold, else right, plus the base margin', () => {
    const m = compileGbdt(validateGbdt(tiny, ['a', 'b']));
    assert.equal(gbdtMargin(m, Float64Array.from([0, 0])), 0.5 + 1 - 1);
    assert.equal(gbdtMargin(m, Float64Array.from([0, 5])), 0.5 + 2 + 0.25);
    assert.equal(
      gbdtMargin(m, Float64Array.from([0.5, 1])),
      0.5 + 3 + 0.25,
      'equal to the threshold goes right',
    );
    // Compared in float32 like XGBoost: 0.1 as a double is above float32(0.1)'s threshold only in float64.
    const f32 = compileGbdt(
      validateGbdt(
        {
          ...tiny,
          trees: [[{ feature: 0, threshold: Math.fround(0.1), yes: 1, no: 2 }, { leaf: 1 }, { leaf: 2 }]],
        },
        ['a', 'b'],
      ),
    );
    assert.equal(gbdtMargin(f32, Float64Array.from([0.1, 0])), 0.5 + 2);
  });

  it('refuses a model file trained on other features, or whose splits point back up their tree', () => {
    assert.throws(() => validateGbdt(tiny, ['a', 'c']), /other features/);
    assert.throws(() => validateGbdt({ ...tiny, format: 'xgboost' }, ['a', 'b']), /unknown format/);
    const loop = { ...tiny, trees: [[{ feature: 0, threshold: 1, yes: 0, no: 1 }, { leaf: 1 }]] };
    assert.throws(() => validateGbdt(loop, ['a', 'b']), /outside its tree/);
    // A graph rather than a tree: a walk would end, but the scorer's layout would unfold it.
    const shared = {
      ...tiny,
      trees: [
        [
          { feature: 0, threshold: 1, yes: 1, no: 2 },
          { feature: 1, threshold: 1, yes: 3, no: 3 },
          { feature: 1, threshold: 2, yes: 3, no: 4 },
          { leaf: 1 },
          { leaf: 2 },
        ],
      ],
    };
    assert.throws(() => validateGbdt(shared, ['a', 'b']), /shared child/);
  });

  /** The shipped files, each with a model for both modes. */
  const shippedFiles = [
    { store: 'sqlite', backends: sqliteBackends },
    { store: 'postgres', backends: postgresBackends },
  ].map(({ store, backends }) => {
    const file = readShippedModelFile(backends);
    const modes = (['fast', 'thorough'] as const).filter((m) => file.models[m] !== undefined);
    return { store, backends, file, modes };
  });

  it('ships SQLite’s model and PostgreSQL’s for both modes', () => {
    assert.deepEqual(shippedFiles[0]!.modes, ['fast', 'thorough']);
    assert.deepEqual(shippedFiles[1]!.modes, ['fast', 'thorough']);
    // A mode a file lacked would be left to the fusion (retrieve.ts checks modes): none is.
    assert.deepEqual(shippedReranker(postgresBackends).modes ?? ['fast', 'thorough'], shippedFiles[1]!.modes);
  });

  for (const { store, backends, file, modes } of shippedFiles)
    it(`the shipped ${store} stage 1 gives XGBoost’s own margins for the rows it recorded, in each mode`, () => {
      const shipped = shippedReranker(backends);
      assert.match(shipped.id, /^gbdt-rerank-/);
      assert.equal(shipped.embedder, 'glove-sif');
      const { checks } = file;
      for (const mode of modes) {
        const rows = (checks ?? []).filter((c) => c.mode === mode);
        assert.ok(rows.length >= 4, `${mode} rows to replay`);
        // Rows of no thread: stage 2 does not apply, the scores are stage 1's.
        const { scores: got, by } = shipped.score(
          {
            ids: rows.map((_, i) => `r${i}`),
            rows: rows.map((r) => Float64Array.from(r.x)),
            neighbours: rows.map(() => Int32Array.from([-1, -1, -1, -1])),
            threads: rows.map(() => null),
          },
          mode,
        );
        assert.match(by!, /stage 2 skipped: candidates outside threads/);
        rows.forEach((r, i) =>
          assert.ok(Math.abs(got[i]! - r.margin) < 1e-4, `${mode} row ${i}: ${got[i]} vs ${r.margin}`),
        );
      }
    });

  for (const { store, backends, file, modes } of shippedFiles)
    it(`the shipped ${store} stage 2 gives XGBoost’s own margins over whole requests, in each mode, and is not skipped`, () => {
      const shipped = shippedReranker(backends);
      for (const mode of modes) {
        const requests = (file.request_checks ?? []).filter((c) => c.mode === mode);
        assert.deepEqual(
          requests.map((r) => r.stage2_applies),
          [true, false],
          `${mode}: a request of thread messages and one of documents`,
        );
        // Both stages are in the file: one that lost its stage 2 would still load and silently rank by stage 1.
        const stages = validateStages(file.models[mode]);
        assert.ok(stages.stage2, `${mode} has a stage 2`);
        for (const r of requests) {
          const c: RerankCandidates = {
            ids: r.rows.map((_, i) => `r${i}`),
            rows: r.rows.map((x) => Float64Array.from(x)),
            neighbours: r.neighbours.map((n) => Int32Array.from(n)),
            threads: r.threads,
          };
          const { scores, by } = shipped.score(c, mode);
          assert.match(
            by!,
            r.stage2_applies
              ? /\(stage 1, then stage 2( over the best \d+ by stage 1)?\)$/
              : /stage 2 skipped/,
          );
          r.final.forEach((want, i) =>
            assert.ok(Math.abs(scores[i]! - want) < 1e-4, `${mode} row ${i}: ${scores[i]} vs ${want}`),
          );
          if (r.stage2_applies) {
            // Stage 2 moves the scores away from stage 1's: equal scores would mean it did not run.
            assert.ok(r.final.some((f, i) => Math.abs(f - r.stage1[i]!) > 0.01));
          }
        }
      }
    });

  it('stacks stage 1’s scores by place, thread neighbours and thread, as train.py does', () => {
    const row = (v: number) => Float64Array.from([v]);
    // Rows 0-2 in thread a (row 1 between 0 and 2), row 3 alone in thread b, row 4 in no thread.
    const c: RerankCandidates = {
      ids: ['a0', 'a1', 'a2', 'b0', 'd'],
      rows: [row(10), row(11), row(12), row(13), row(14)],
      neighbours: [
        Int32Array.from([-1, -1, 1, 2]),
        Int32Array.from([-1, 0, 2, -1]),
        Int32Array.from([0, 1, -1, -1]),
        Int32Array.from([-1, -1, -1, -1]),
        Int32Array.from([-1, -1, -1, -1]),
      ],
      threads: ['a', 'a', 'a', 'b', null],
    };
    const s = [0.5, 2, 0.5, -1, 1];
    const got = stackFeatures(c, s).map((x) => Array.from(x));
    const m = stackMissing;
    assert.deepEqual(stackFeatureNames, [
      's1',
      's1_inv_rank',
      's1_gap',
      's1_nb-2',
      's1_nb-1',
      's1_nb1',
      's1_nb2',
      's1_thread_max',
      's1_nb_max',
    ]);
    // Places by s: row 1 (2), row 4 (1), row 0 (0.5, first of the tie), row 2 (0.5), row 3 (-1).
    assert.deepEqual(got, [
      [10, 0.5, 1 / 3, -1.5, m, m, 2, 0.5, 2, 2],
      [11, 2, 1, 0, m, 0.5, 0.5, m, 0.5, 0.5],
      [12, 0.5, 1 / 4, -1.5, 0.5, 2, m, m, 2, 2],
      [13, -1, 1 / 5, -3, m, m, m, m, m, m],
      [14, 1, 1 / 2, -1, m, m, m, m, m, m],
    ]);
    // Only the rows asked for, in the order asked.
    assert.deepEqual(
      stackFeatures(c, s, undefined, [3, 1]).map((x) => Array.from(x)),
      [got[3], got[1]],
    );
  });

  it('stage 2 rescores only the best stage2Depth by stage 1; the rest follow in stage 1’s order', () => {
    const step = (feature: number, threshold: number, no: number) => [
      { feature, threshold, yes: 1, no: 2 },
      { leaf: 0 },
      { leaf: no },
    ];
    const model = (trees: GbdtModel['trees']): GbdtModel => ({
      format: 'mnemo-gbdt/1',
      features: [],
      base_margin: 0,
      trees,
    });
    // Stage 1: how many of 1.5, 2.5, 3.5 feature 0 reaches. Stage 2: minus that (s1 is at index 1).
    const stage1 = model([step(0, 1.5, 1), step(0, 2.5, 1), step(0, 3.5, 1)]);
    const stage2 = model([step(1, 0.5, -1), step(1, 1.5, -1), step(1, 2.5, -1)]);
    const c: RerankCandidates = {
      ids: ['a', 'b', 'c', 'd'],
      rows: [1, 4, 3, 2].map((v) => Float64Array.of(v)),
      neighbours: [0, 1, 2, 3].map(() => Int32Array.of(-1, -1, -1, -1)),
      threads: ['t', 't', 't', 't'],
    };
    const stages = { stage1, stage2 };
    const r = createGbdtReranker('depth-test', { fast: stages, thorough: stages }, 150, undefined, 2);
    // Stage 1: a 0, b 3, c 2, d 1. Stage 2 reverses b and c, the best two; d and a keep stage 1's scores.
    const got = r.score(c, 'fast');
    assert.deepEqual(got.scores, [0, -3, -2, 1]);
    assert.deepEqual(got.tiers, [1, 0, 0, 1]);
    assert.equal(got.by, 'depth-test (stage 1, then stage 2 over the best 2 by stage 1)');
    const all = createGbdtReranker('all', { fast: stages, thorough: stages }, 150).score(c, 'fast');
    assert.deepEqual(all.scores, [0, -3, -2, -1]);
    assert.deepEqual(all.tiers, [0, 0, 0, 0]);
  });

  it('runs stage 2 on stage 1’s scores where every candidate is in a thread, and the Trace says so', async () => {
    const nStack = rerankFeatureNames.length + stackFeatureNames.length;
    const leafOnly = (features: readonly string[], leaf: number): GbdtModel => ({
      format: 'mnemo-gbdt/1',
      features: [...features],
      base_margin: 0,
      trees: [[{ leaf }]],
    });
    // Stage 1 scores every candidate 1; stage 2 sends the fusion's first (frank < 1.5) to the bottom.
    const stage2: GbdtModel = {
      ...leafOnly([...rerankFeatureNames, ...stackFeatureNames], 0),
      trees: [
        [{ feature: 0, threshold: 1.5, yes: 1, no: 2 }, { leaf: -5 }, { leaf: 0 }],
        // s1 is 1 for all: + 1 if stage 2 saw it.
        [{ feature: rerankFeatureNames.length, threshold: 0.5, yes: 1, no: 2 }, { leaf: 0 }, { leaf: 1 }],
      ],
    };
    assert.equal(stage2.features.length, nStack);
    const stages = { stage1: leafOnly(rerankFeatureNames, 1), stage2 };
    const reranker = createGbdtReranker('stacked-test', { fast: stages, thorough: stages }, 150);
    const plain = await engineWith({ reranker: null });
    const plainIds = await conversation(plain);
    const fused = await ask(plain, 'Why did Jon pick the spot for his store?');
    const first = plainIds.indexOf(fused.citations[0]!.record_id);

    const engine = await engineWith({ reranker });
    const ids = await conversation(engine);
    const ctx = await ask(engine, 'Why did Jon pick the spot for his store?');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    assert.match(trace.fusion.method, /then stacked-test \(stage 1, then stage 2\) over the best 150/);
    const last = trace.fusion.results.at(-1)!;
    assert.equal(ids.indexOf(last.record_id), first, 'the fusion’s first goes last');
    assert.equal(last.rerank_score, -5 + 1);
    assert.ok(trace.fusion.results.slice(0, -1).every((r) => r.rerank_score === 1));

    // A candidate outside any thread (a document): stage 1 alone, and the Trace says so.
    await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'document', text: 'Why Jon picked the store spot: notes.' } },
      {},
    );
    await engine.idle();
    const mixed = await ask(engine, 'Why did Jon pick the spot for his store?');
    const mixedTrace = await engine.getTrace(tenant, 'b', mixed.id);
    assert.match(
      mixedTrace.fusion.method,
      /stacked-test \(stage 1; stage 2 skipped: candidates outside threads\)/,
    );
    assert.ok(mixedTrace.fusion.results.every((r) => r.rerank_score === 1));
  });

  it('refuses a model file whose modes are not {stage1, stage2?} or whose stage 2 has other features', () => {
    const m = (features: readonly string[]): GbdtModel => ({ ...tiny, features: [...features] });
    assert.throws(() => validateStages(m(rerankFeatureNames)), /expected \{stage1, stage2\?\}/);
    assert.ok(validateStages({ stage1: m(rerankFeatureNames) }));
    assert.throws(
      () => validateStages({ stage1: m(rerankFeatureNames), stage2: m(rerankFeatureNames) }),
      /other features/,
    );
  });

  it('is not applied over cosines of an embedder it was not trained on, and the Trace says so', async () => {
    const engine = await engineWith({}); // the shipped reranker; this engine embeds with the hash model
    await conversation(engine);
    const ctx = await ask(engine, 'Why did Jon pick the spot for his store?');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    assert.match(
      trace.fusion.method,
      /gbdt-rerank-\S+ not applied: trained on glove-sif cosines, the semantic lane has hash/,
    );
    assert.equal(trace.timings_ms['rerank'], undefined);
  });

  it('stands aside on lexical or vector backends it was not trained on, and the Trace says so', async () => {
    const scored: string[] = [];
    const trainedOn = (id: string, backends: RetrievalBackends): Reranker => ({
      id,
      depth: 150,
      backends,
      score: (c) => {
        scored.push(id);
        return { scores: c.ids.map((_, i) => -i) };
      },
    });
    const other = await engineWith({
      reranker: trainedOn('pg-model', { lexical: 'postgres-tsvector/ts_rank', vector: 'pgvector/cosine' }),
    });
    await conversation(other);
    const aside = await other.getTrace(tenant, 'b', (await ask(other, 'Why did Jon pick the spot?')).id);
    assert.match(
      aside.fusion.method,
      /pg-model not applied: trained on scores of postgres-tsvector\/ts_rank and pgvector\/cosine, this engine searches with sqlite-fts5\/bm25 and sqlite-vec\/int8-l2/,
    );
    assert.equal(aside.timings_ms['rerank'], undefined);

    const own = await engineWith({ reranker: trainedOn('sqlite-model', sqliteBackends) });
    await conversation(own);
    const applied = await own.getTrace(tenant, 'b', (await ask(own, 'Why did Jon pick the spot?')).id);
    assert.match(applied.fusion.method, /then sqlite-model/);
    assert.deepEqual(scored, ['sqlite-model']);
  });

  it('the shipped models name the backends of their features', () => {
    assert.deepEqual(shippedReranker().backends, sqliteBackends);
    assert.deepEqual(readShippedModelFile().backends, sqliteBackends);
    assert.deepEqual(shippedReranker(postgresBackends).backends, postgresBackends);
    assert.deepEqual(readShippedModelFile(postgresBackends).backends, postgresBackends);
  });

  it('keeps the fusion’s order in a mode it has no model for, and the Trace says so', async () => {
    const stage1: GbdtModel = {
      format: 'mnemo-gbdt/1',
      features: [...rerankFeatureNames],
      base_margin: 0,
      // The fusion's first (frank < 1.5) goes to the bottom: a reordering the Trace shows.
      trees: [[{ feature: 0, threshold: 1.5, yes: 1, no: 2 }, { leaf: -5 }, { leaf: 0 }]],
    };
    const reranker = createGbdtReranker('fast-only', { fast: { stage1 } }, 150);
    assert.deepEqual(reranker.modes, ['fast']);
    const engine = await engineWith({ reranker });
    await conversation(engine);
    const query = 'Why did Jon pick the spot for his store?';
    const traceOf = async (mode: 'fast' | 'thorough') => {
      const ctx = (await engine.createContext(
        tenant,
        'b',
        { query, mode, budget: { tokens: 8000 } },
        { requestId: 'req_test' },
      )) as ContextReady;
      return engine.getTrace(tenant, 'b', ctx.id);
    };
    const fast = await traceOf('fast');
    assert.match(fast.fusion.method, /then fast-only \(stage 1; no stage 2 for fast\)/);
    assert.equal(fast.fusion.results.at(-1)!.rerank_score, -5);
    const thorough = await traceOf('thorough');
    assert.match(thorough.fusion.method, /fast-only not applied: it has no thorough model, only fast/);
    assert.ok(thorough.fusion.results.every((r) => r.rerank_score === null));
    assert.equal(thorough.timings_ms['rerank'], undefined);
  });

  it('computes each candidate’s features from the lanes, the fusion and its thread', async () => {
    const seen: RerankCandidates[] = [];
    const recorder: Reranker = {
      id: 'recorder',
      depth: 150,
      score: (c) => {
        seen.push(c);
        return { scores: c.ids.map((_, i) => -i) };
      },
    };
    const engine = await engineWith({ reranker: recorder });
    const [opener, store, question, answer, other] = await conversation(engine);
    const ctx = await ask(engine, 'Why did Jon pick the spot for his store?');
    const { ids, rows, neighbours, threads } = seen[0]!;
    const f = (id: string | undefined, name: string) => {
      const row = rows[ids.indexOf(id!)];
      assert.ok(row, `a candidate ${id}`);
      return row[rerankFeatureNames.indexOf(name)];
    };
    // The recorder keeps the fusion's order, so the Context cites in the order the features were taken.
    assert.deepEqual(
      ctx.citations.map((c) => c.record_id),
      ids.filter((id) => ctx.citations.some((c) => c.record_id === id)),
    );
    assert.equal(f(ids[0], 'frank'), 1);
    assert.equal(f(store, 'speaker_named'), 1, 'Jon said it, and the question names Jon');
    assert.equal(f(question, 'speaker_named'), 0);
    assert.equal(f(question, 'has_q'), 1);
    assert.equal(f(store, 'has_q'), 0);
    assert.equal(f(opener, 'opener'), 1, 'the prompt lane brings the thread’s first message');
    assert.equal(f(store, 'opener'), 0);
    assert.equal(f(question, 'overlap'), 2 / 3, '"pick" and "spot" of pick, spot, store');
    assert.equal(f(question, 'names'), 1);
    assert.equal(f(question, 'wh'), 3, 'why');
    assert.equal(f(question, 'nterms'), 3);
    // The answer's neighbour before it is the question: its feature is 1 / the question's place.
    assert.equal(f(answer, 'nb-1'), 1 / (ids.indexOf(question!) + 1));
    assert.equal(f(answer, 'nb1'), 0, 'nothing after it in its thread');
    // And stage 2 gets the neighbours as indices into the rows, -1 where there is none among them.
    const at = (id: string | undefined) => ids.indexOf(id!);
    assert.deepEqual(Array.from(neighbours[at(answer)]!), [at(store), at(question), -1, -1]);
    assert.deepEqual(Array.from(neighbours[at(opener)]!), [-1, -1, at(store), at(question)]);
    assert.equal(threads[at(answer)], threads[at(opener)]);
    assert.notEqual(threads[at(answer)], null);
    if (ids.includes(other!)) assert.notEqual(threads[at(other)], threads[at(answer)]);
    assert.equal(f(question, 'same_thread_top10'), ids.slice(0, 10).filter((id) => id !== other).length);
    assert.equal(f(question, 'on_lexical'), 1);
    assert.equal(f(question, 'on_time'), 0, 'no date in the question');
    assert.ok(f(ids[0], 'lexnorm')! <= 1);
  });

  it('the words of a two-word speaker name are a name, not topic words', async () => {
    const seen: Float64Array[][] = [];
    const recorder: Reranker = {
      id: 'recorder',
      depth: 150,
      score: (c) => (seen.push([...c.rows]), { scores: c.ids.map((_, i) => -i) }),
    };
    const engine = await engineWith({ reranker: recorder });
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(
      tenant,
      'b',
      msg('I love how tomatoes taste straight from the vine.', 'Mary Ann', '2023-05-01T09:00:00Z', 's1'),
      {},
    );
    // A second candidate: a single one has no order to change, and is not reranked.
    await engine.rememberRecord(
      tenant,
      'b',
      msg('Tomatoes again? You love them.', 'Bob', '2023-05-01T09:01:00Z', 's1'),
      {},
    );
    await engine.idle();
    await ask(engine, 'What does Mary Ann love about tomatoes?');
    const row = seen[0]!.find((r) => r[rerankFeatureNames.indexOf('speaker_named')] === 1)!;
    const at = (name: string) => row[rerankFeatureNames.indexOf(name)];
    assert.equal(at('names'), 1);
    assert.equal(at('speaker_named'), 1);
    assert.equal(at('nterms'), 2, 'love, tomatoes');
    assert.equal(at('overlap'), 1);
  });

  it('orders the Context by the reranker’s scores and names it in the Trace; null keeps the fusion', async () => {
    const plain = await engineWith({ reranker: null });
    const plainIds = await conversation(plain);
    const fused = await ask(plain, 'Why did Jon pick the spot for his store?');
    const plainTrace = await plain.getTrace(tenant, 'b', fused.id);
    assert.doesNotMatch(plainTrace.fusion.method, /rerank/);
    assert.equal(plainTrace.timings_ms['rerank'], undefined);
    // The same messages in both Brains: compare which message each citation is, by writing order.
    const order = fused.citations.map((c) => plainIds.indexOf(c.record_id));
    assert.ok(order.length >= 4);

    const modes: string[] = [];
    const reverse = (depth: number): Reranker => ({
      id: 'reverse-test',
      depth,
      score: (c, mode) => {
        modes.push(mode);
        return { scores: c.ids.map((_, i) => i) };
      },
    });
    const engine = await engineWith({ reranker: reverse(150) });
    const ids = await conversation(engine);
    const reversed = await ask(engine, 'Why did Jon pick the spot for his store?');
    assert.deepEqual(
      reversed.citations.map((c) => ids.indexOf(c.record_id)),
      [...order].reverse(),
    );
    const trace = await engine.getTrace(tenant, 'b', reversed.id);
    assert.match(trace.fusion.method, /then reverse-test over the best 150/);
    assert.ok(trace.timings_ms['rerank']! >= 0);
    // The Trace lists the final order with the scores that set it: the reranker's, descending.
    assert.deepEqual(
      trace.fusion.results.map((r) => r.rerank_score),
      order.map((_, i) => order.length - 1 - i),
    );
    await engine.createContext(tenant, 'b', { query: 'the store', mode: 'thorough' }, { requestId: 'req_t' });
    assert.deepEqual(modes, ['fast', 'thorough']);
    const explained = (await engine.createContext(
      tenant,
      'b',
      { query: 'Why did Jon pick the spot for his store?', budget: { tokens: 8000 }, include: ['explain'] },
      { requestId: 'req_explain' },
    )) as ContextReady;
    const evidence = (explained.explain as { evidence: { rerank_score: number | null }[] }).evidence;
    assert.deepEqual(
      evidence.map((e) => e.rerank_score),
      evidence.map((_, i) => order.length - 1 - i),
      'explain shows the scores that ordered the evidence',
    );

    const shallow = await engineWith({ reranker: reverse(2) });
    const shallowIds = await conversation(shallow);
    const two = await ask(shallow, 'Why did Jon pick the spot for his store?');
    assert.deepEqual(
      two.citations.map((c) => shallowIds.indexOf(c.record_id)),
      [order[1], order[0], ...order.slice(2)],
      'only the best two are reordered; the rest keep the fusion’s order',
    );
    const shallowTrace = await shallow.getTrace(tenant, 'b', two.id);
    assert.deepEqual(
      shallowTrace.fusion.results.map((r) => r.rerank_score),
      [1, 0, ...order.slice(2).map(() => null)],
      'beyond the depth there is no reranker score',
    );
  });

  it('puts a lower tier first whatever the scores (stage 2’s candidates before the rest)', async () => {
    const q = 'Why did Jon pick the spot for his store?';
    const plain = await engineWith({ reranker: null });
    const plainIds = await conversation(plain);
    const order = (await ask(plain, q)).citations.map((c) => plainIds.indexOf(c.record_id));
    assert.ok(order.length >= 4);
    // Scores rise down the fusion; every other candidate is in the later tier.
    const tiered: Reranker = {
      id: 'tier-test',
      depth: 150,
      score: (c) => ({ scores: c.ids.map((_, i) => i), tiers: c.ids.map((_, i) => i % 2) }),
    };
    const engine = await engineWith({ reranker: tiered });
    const ids = await conversation(engine);
    const ctx = await ask(engine, q);
    const byScore = (tier: number) => order.filter((_, i) => i % 2 === tier).reverse();
    assert.deepEqual(
      ctx.citations.map((c) => ids.indexOf(c.record_id)),
      [...byScore(0), ...byScore(1)],
    );
  });

  it('the slot lane’s Record leads whatever the reranker scores it: the current employer, not the one left', async () => {
    // A reranker that puts the fusion's order upside down, as the shipped one did to the slot lane's
    // Record (it never saw that lane): "Where does Ana work?" was answered with Zalando and her sister.
    const reverse: Reranker = {
      id: 'reverse-test',
      depth: 150,
      score: (c) => ({ scores: c.ids.map((_, i) => i) }),
    };
    const engine = await engineWith({ reranker: reverse });
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const said = async (text: string, at: string) =>
      (await engine.rememberRecord(tenant, 'b', msg(text, 'Ana', at, 't'), {})).record.id;
    await said('I live in Berlin and I work at Zalando as a data engineer.', '2024-01-10T09:00:00Z');
    await said('My sister Rita works at Siemens in Munich, where does she live?', '2024-01-10T09:01:00Z');
    const feedzai = await said('I now work at Feedzai, I left Zalando.', '2024-06-15T10:02:00Z');
    await said('Work was long today.', '2024-06-16T10:00:00Z');
    await engine.idle();
    const ctx = await ask(engine, 'Where does Ana work?');
    assert.equal(ctx.citations[0]?.record_id, feedzai);
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    assert.match(trace.fusion.method, /then reverse-test over the best 150; the slot lane's Records first/);
    assert.equal(trace.fusion.results[0]?.record_id, feedzai);
    // A question the slot lane does not answer keeps the reranker's order, and the Trace says nothing of it.
    const other = await ask(engine, 'What did Ana say about Munich?');
    const otherTrace = await engine.getTrace(tenant, 'b', other.id);
    assert.doesNotMatch(otherTrace.fusion.method, /slot lane/);
  });

  it('skips reranking when budget.ms has run out, and says so', async () => {
    let called = 0;
    const slow = {
      name: 'slow',
      search: () => {
        const until = performance.now() + 30;
        while (performance.now() < until);
        return [];
      },
    };
    const engine = await engineWith({
      lanes: [slow],
      reranker: { id: 'counting', depth: 150, score: (c) => (called++, { scores: c.ids.map(() => 0) }) },
    });
    await conversation(engine);
    const ctx = (await engine.createContext(
      tenant,
      'b',
      { query: 'Why did Jon pick the spot for his store?', budget: { tokens: 8000, ms: 10 } },
      { requestId: 'req_test' },
    )) as ContextReady;
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    assert.equal(called, 0);
    assert.ok(trace.lanes.some((l) => l.name === 'rerank (skipped: budget.ms ran out)'));
  });

  it('a neighbour the request may not see is no neighbour', async () => {
    const seen: RerankCandidates[] = [];
    const recorder: Reranker = {
      id: 'recorder',
      depth: 150,
      score: (c) => (seen.push(c), { scores: c.ids.map((_, i) => -i) }),
    };
    const engine = await engineWith({ reranker: recorder });
    await engine.createBrain(tenant, { id: 'b' });
    const write = async (text: string, at: string, source: string) =>
      (
        await engine.rememberRecord(
          tenant,
          'b',
          { ...msg(text, 'Jon', at, 's1'), source: { name: source } },
          {},
        )
      ).record.id;
    const question = await write('Where did you pick for the store?', '2023-05-01T09:00:00Z', 'chat');
    await write('Private aside, not for this agent.', '2023-05-01T09:01:00Z', 'diary');
    const answer = await write(
      'Downtown, by the station: the store spot is perfect.',
      '2023-05-01T09:02:00Z',
      'chat',
    );
    await engine.idle();
    await engine.createContext(
      tenant,
      'b',
      { query: 'Where is the store spot?', filter: { sources: ['chat'] } },
      { requestId: 'req_test' },
    );
    const { ids, rows, neighbours } = seen[0]!;
    assert.equal(
      neighbours[ids.indexOf(answer)]![1],
      ids.indexOf(question),
      'the same neighbour for stage 2',
    );
    const nbBefore = rows[ids.indexOf(answer)]![rerankFeatureNames.indexOf('nb-1')];
    assert.equal(nbBefore, 1 / (ids.indexOf(question) + 1), 'the message before it that the request can see');
    assert.equal(rows[ids.indexOf(answer)]![rerankFeatureNames.indexOf('nb-2')], 0);
  });
});
