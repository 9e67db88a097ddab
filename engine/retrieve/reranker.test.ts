import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../contract/index.ts';
import type { Engine, Tenant } from '../types.ts';
import { createLocalEngine, type LocalEngineOptions } from '../local/index.ts';
import { compileGbdt, gbdtMargin, validateGbdt, type GbdtModel } from './gbdt.ts';
import { rerankFeatureNames } from './rerank-features.ts';
import { readShippedModelFile, shippedReranker, type Reranker } from './reranker.ts';

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
  });

  it('the shipped models give XGBoost’s own margins for the rows it recorded, in both modes', () => {
    const shipped = shippedReranker();
    assert.match(shipped.id, /^gbdt-rerank-/);
    assert.equal(shipped.embedder, 'glove-sif');
    const { checks } = readShippedModelFile();
    for (const mode of ['fast', 'thorough'] as const) {
      const rows = (checks ?? []).filter((c) => c.mode === mode);
      assert.ok(rows.length >= 4, `${mode} rows to replay`);
      const got = shipped.score(
        rows.map((_, i) => `r${i}`),
        rows.map((r) => Float64Array.from(r.x)),
        mode,
      );
      rows.forEach((r, i) =>
        assert.ok(Math.abs(got[i]! - r.margin) < 1e-4, `${mode} row ${i}: ${got[i]} vs ${r.margin}`),
      );
    }
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

  it('computes each candidate’s features from the lanes, the fusion and its thread', async () => {
    const seen: { ids: string[]; rows: Float64Array[] }[] = [];
    const recorder: Reranker = {
      id: 'recorder',
      depth: 150,
      score: (ids, rows) => {
        seen.push({ ids: [...ids], rows: [...rows] });
        return ids.map((_, i) => -i);
      },
    };
    const engine = await engineWith({ reranker: recorder });
    const [opener, store, question, answer, other] = await conversation(engine);
    const ctx = await ask(engine, 'Why did Jon pick the spot for his store?');
    const { ids, rows } = seen[0]!;
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
      score: (ids, rows) => (seen.push([...rows]), ids.map((_, i) => -i)),
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
      score: (ids, _rows, mode) => {
        modes.push(mode);
        return ids.map((_, i) => i);
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
      reranker: { id: 'counting', depth: 150, score: (ids) => (called++, ids.map(() => 0)) },
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
    const seen: { ids: string[]; rows: Float64Array[] }[] = [];
    const recorder: Reranker = {
      id: 'recorder',
      depth: 150,
      score: (ids, rows) => (seen.push({ ids: [...ids], rows: [...rows] }), ids.map((_, i) => -i)),
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
    const { ids, rows } = seen[0]!;
    const nbBefore = rows[ids.indexOf(answer)]![rerankFeatureNames.indexOf('nb-1')];
    assert.equal(nbBefore, 1 / (ids.indexOf(question) + 1), 'the message before it that the request can see');
    assert.equal(rows[ids.indexOf(answer)]![rerankFeatureNames.indexOf('nb-2')], 0);
  });
});
