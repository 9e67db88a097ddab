import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { ContextReady } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import { postgresBackends, sqliteBackends } from '../../engine/core/retrieve/backends.ts';
import { readShippedModelFile, shippedReranker } from '../../engine/retrieve/reranker.ts';
import type { Engine } from '../../engine/types.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

// Called at the file's top level: its databases close after the file. The engine gets one of its own,
// started from the kept data directory.
const database = await pgliteDatabases({ vector: true, migrated: true });

/** The Trace's fusion.method of a Context of Brain b. */
async function methodOf(engine: Engine, mode: 'fast' | 'thorough', query: string): Promise<string> {
  const ctx = (await engine.createContext(
    tenant,
    'b',
    { query, mode, budget: { tokens: 4000 } },
    { requestId: 'req_test' },
  )) as ContextReady;
  return (await engine.getTrace(tenant, 'b', ctx.id)).fusion.method;
}

/** The Trace's fusion.method of a fast Context over a short thread, written to a new Brain b. */
async function fusionMethod(engine: Engine): Promise<string> {
  await engine.createBrain(tenant, { id: 'b' });
  for (const [i, text] of ['I opened my clothing store downtown.', 'Why there?', 'Foot traffic.'].entries()) {
    await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'message', text, speaker: i % 2 ? 'Gina' : 'Jon', thread: 's1' } },
      {},
    );
  }
  await engine.idle();
  return methodOf(engine, 'fast', 'Why did Jon open his store downtown?');
}

describe('the shipped reranker per store', () => {
  const local = readShippedModelFile(sqliteBackends);
  const postgres = readShippedModelFile(postgresBackends);

  it('has a model trained on the PostgreSQL engine’s own backends, apart from the SQLite one', () => {
    assert.deepEqual(postgres.backends, postgresBackends);
    assert.deepEqual(local.backends, sqliteBackends);
    assert.notEqual(postgres.id, local.id);
    assert.deepEqual(shippedReranker(postgresBackends).backends, postgresBackends);
    assert.deepEqual(shippedReranker().backends, sqliteBackends);
    // Backends no model was trained on get the SQLite one, which stands aside on them.
    assert.equal(shippedReranker({ lexical: 'other/rank', vector: 'other/distance' }).id, local.id);
  });

  it('the hosted engine loads the PostgreSQL model and the local engine the SQLite one', async () => {
    // The hash embedder is no model's: each stands aside, and the Trace names the model each engine loaded.
    const { engine: hosted } = await openPostgresEngine(
      { open: async () => postgresStorageOver(await database()) },
      { embedder: { provider: 'hash', dataDir: tempDir() } },
    );
    try {
      const method = await fusionMethod(hosted);
      assert.ok(method.includes(`${postgres.id} not applied: trained on glove-sif cosines`), method);
      assert.ok(!method.includes(local.id), method);
    } finally {
      await hosted.close();
    }
    const dir = tempDir();
    const desktop = await open(dir, { embedder: { provider: 'hash', dataDir: dir } });
    try {
      const method = await fusionMethod(desktop);
      assert.ok(method.includes(`${local.id} not applied: trained on glove-sif cosines`), method);
      assert.ok(!method.includes(postgres.id), method);
    } finally {
      await desktop.close();
    }
  });

  it('reorders fast and thorough Contexts of the hosted engine with the PostgreSQL model', async () => {
    assert.deepEqual(Object.keys(postgres.models).sort(), ['fast', 'thorough']);
    // glove-sif, the embedder the model was trained with, so the model applies.
    const { engine: hosted } = await openPostgresEngine(
      { open: async () => postgresStorageOver(await database()) },
      { embedder: { provider: 'glove-sif', dataDir: tempDir() } },
    );
    try {
      const fast = await fusionMethod(hosted);
      assert.match(fast, new RegExp(`then ${postgres.id} \\(stage 1`), fast);
      const method = await methodOf(hosted, 'thorough', 'Where is Jon’s clothing store?');
      assert.match(method, new RegExp(`then ${postgres.id} \\(stage 1`), method);
      assert.doesNotMatch(method, /not applied/, method);
    } finally {
      await hosted.close();
    }
  });
});
