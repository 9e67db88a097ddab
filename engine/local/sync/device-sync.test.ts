import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RecordPage } from '../../contract/index.ts';
import type { Engine, Tenant } from '../../types.ts';
import { createLocalEngine } from '../index.ts';

const t: Tenant = { project: 'home', env: 'test' };

/** A local engine on a real store in a temp dir, closed and removed after the file. */
function engineFor(name: string): () => Engine {
  let engine: Engine;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), `mnemo-${name}-`));
    engine = await createLocalEngine({ dataDir: dir, dbKey: null, embedder: null, reranker: null });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => engine;
}

/** The whole change feed of a Brain, page by page. */
async function feed(engine: Engine, brainId: string, limit: number): Promise<RecordPage[]> {
  const pages: RecordPage[] = [];
  for (let watermark = 'start'; ;) {
    const page = await engine.listRecords(t, brainId, { since_watermark: watermark, limit });
    pages.push(page);
    watermark = page.watermark!;
    if (!page.has_more) return pages;
    assert.ok(pages.length < 100);
  }
}

describe('the change feed of a device', () => {
  const engine = engineFor('feed');

  it('serves no local_only Record, on a local deployment too', async () => {
    const e = engine();
    await e.createBrain(t, { id: 'ana' });
    const written: Record<string, string> = {};
    for (const visibility of ['shareable', 'local_only', 'redacted_summary', 'local_only'] as const) {
      const { record } = await e.rememberRecord(
        t,
        'ana',
        { content: `a ${visibility} note`, visibility },
        {},
      );
      written[record.id] = visibility;
    }
    for (const limit of [1, 2, 200]) {
      const served = (await feed(e, 'ana', limit)).flatMap((p) => p.data.map((r) => r.id));
      assert.deepEqual(
        served.map((id) => written[id]),
        ['shareable', 'redacted_summary'],
        `pages of ${limit}`,
      );
    }
  });
});
