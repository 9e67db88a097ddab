import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Embedder } from './embedder.ts';
import { createGloveEmbedder } from './glove-embedder.ts';
import { sharedGloveEmbedder, type SharedGloveOptions } from './shared-glove.ts';
import { winkFile } from './testing/wink-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-shared-glove-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let specs = 0;
/** A spec no other case shares a table with. */
const newSpec = () => ({ provider: 'glove-sif' as const, cacheDir: join(dir, `cache-${++specs}`) });

/** Loads that count themselves and their closes, settling when `settle` is called (or at once). */
function countedLoads(opts: { held?: boolean; fail?: boolean } = {}) {
  const counts = { loads: 0, closes: 0 };
  const waiting: Array<() => void> = [];
  const load: SharedGloveOptions['load'] = async () => {
    counts.loads += 1;
    if (opts.held) await new Promise<void>((resolve) => waiting.push(resolve));
    if (opts.fail) throw new Error('no table here');
    const table: Embedder = {
      provider: 'glove-sif',
      model: 'counted',
      dims: 2,
      embed: async (texts) => texts.map(() => new Float32Array([1, 0])),
      close: async () => void (counts.closes += 1),
    };
    return table;
  };
  return { counts, load, settle: () => waiting.splice(0).forEach((resolve) => resolve()) };
}

describe("GloVe tables shared by a process's engines", () => {
  it('loads a table once for engines that ask together, and closes it after the last and the linger', async () => {
    const { counts, load } = countedLoads();
    const spec = newSpec();
    const [a, b] = await Promise.all([
      sharedGloveEmbedder(spec, undefined, { load, lingerMs: 30 }),
      sharedGloveEmbedder(spec, undefined, { load, lingerMs: 30 }),
    ]);
    assert.equal(counts.loads, 1);
    assert.deepEqual(await b.embed(['x']), [new Float32Array([1, 0])]);
    await a.close();
    await a.close();
    assert.equal(
      counts.closes,
      0,
      'one embedder still uses it (a second close() of the first is no release)',
    );
    await b.close();
    assert.equal(counts.closes, 0, 'it lingers for the next engine');
    await sleep(60);
    assert.equal(counts.closes, 1, 'closed once the linger has passed');
  });

  it('hands a lingering table to the next engine, and loads another table for another spec', async () => {
    const { counts, load } = countedLoads();
    const spec = newSpec();
    await (await sharedGloveEmbedder(spec, undefined, { load, lingerMs: 1_000 })).close();
    const next = await sharedGloveEmbedder(spec, undefined, { load, lingerMs: 30 });
    assert.equal(counts.loads, 1, 'the lingering table');
    const other = await sharedGloveEmbedder(newSpec(), undefined, { load, lingerMs: 30 });
    assert.equal(counts.loads, 2, 'another cache directory, another table');
    await next.close();
    await other.close();
    await sleep(60);
    assert.equal(counts.closes, 2);
  });

  it('rejects an aborted caller alone; a table no one waited for to the end is closed, not kept', async () => {
    const { counts, load, settle } = countedLoads({ held: true });
    const spec = newSpec();
    const abort = new AbortController();
    const gaveUp = sharedGloveEmbedder(spec, abort.signal, { load });
    const waits = sharedGloveEmbedder(spec, undefined, { load });
    abort.abort();
    await assert.rejects(gaveUp, /aborted/);
    settle();
    const e = await waits;
    assert.equal(counts.loads, 1);
    await e.close();

    const alone = new AbortController();
    const loading = sharedGloveEmbedder(newSpec(), alone.signal, { load });
    alone.abort();
    await assert.rejects(loading, /aborted/);
    settle();
    await sleep(10);
    assert.equal(counts.closes, 1, 'the table everyone gave up on, closed once it loaded');
  });

  it('keeps no failed load: the next engine tries again', async () => {
    const { counts, load } = countedLoads({ fail: true });
    const spec = newSpec();
    await assert.rejects(sharedGloveEmbedder(spec, undefined, { load }), /no table here/);
    await assert.rejects(sharedGloveEmbedder(spec, undefined, { load }), /no table here/);
    assert.equal(counts.loads, 2);
  });

  it("embeds as the table's own embedder does, over the real loader", async () => {
    const vectorsPath = join(dir, 'tiny.json');
    winkFile(vectorsPath);
    const spec = { provider: 'glove-sif' as const, vectorsPath, cacheDir: join(dir, 'tiny-cache') };
    const own = await createGloveEmbedder(spec);
    const shared = await sharedGloveEmbedder(spec, undefined, { lingerMs: 0 });
    try {
      assert.deepEqual([shared.provider, shared.model, shared.dims], [own.provider, own.model, own.dims]);
      const texts = ['a cat', 'the kitten and the truck'];
      assert.deepEqual(await shared.embed(texts), await own.embed(texts));
    } finally {
      await shared.close();
      await own.close();
    }
  });
});
