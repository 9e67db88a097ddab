import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase } from '../adapters/sqlite/open-database.ts';
import { storeFileName } from '../adapters/sqlite/store.ts';
import type { Tenant } from '../types.ts';
import { createLocalEngine } from './index.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };

/**
 * A correction keeps what it corrected for another side to find (its target: the Records and the
 * corrected Memory's statement). Once those Records are forgotten, that statement is their words.
 */
describe('a correction whose corrected Records were all forgotten', () => {
  it('keeps none of their words in the store, and is shown as it was written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-forget-target-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const dbKey = 'forget-target-key';
    const engine = await createLocalEngine({ dataDir: dir, dbKey, embedder: null });
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana Lima' } });
    const fact = (predicate: string, value: string) =>
      engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'fact', subject: 'Ana Lima', predicate, value } },
        {},
      );
    const car = await fact('drives', 'a red Fiat, plate CANARY-12-AB');
    const horse = await fact('rides', 'a grey horse named CANARY-HORSE');
    await engine.idle();
    const said = async (id: string) => (await engine.getRecord(tenant, 'b', id)).memory_ids[0]!;
    const fix = await engine.rememberRecord(
      tenant,
      'b',
      {
        content: {
          kind: 'correction',
          corrects: await said(car.record.id),
          statement: 'Ana Lima drives a blue Tesla',
        },
      },
      {},
    );
    const withdrawal = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'correction', corrects: await said(horse.record.id) } },
      {},
    );
    const shown = async () =>
      Promise.all(
        [fix, withdrawal].map(async (r) => (await engine.getRecord(tenant, 'b', r.record.id)).content),
      );
    const before = await shown();
    for (const r of [car, horse]) await engine.forgetRecord(tenant, 'b', r.record.id);
    assert.deepEqual(await shown(), before, 'the API shows each as it was written');
    await engine.close();

    const db = openDatabase({ file: join(dir, storeFileName), key: dbKey });
    try {
      const contents = db
        .prepare<[], { content: string }>('SELECT content FROM records')
        .all()
        .map((r) => r.content)
        .join('\n');
      assert.doesNotMatch(contents, /CANARY/, "a forgotten Record's words are kept by a correction");
      assert.match(contents, /Ana Lima drives a blue Tesla/);
    } finally {
      db.close();
    }
  });
});
