import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openPostgresEngine } from '../../index.ts';
import type { PgClient } from './client.ts';
import { indexCompoundWords } from './compound-words.ts';
import { pgLexicalIndex } from './lexical-index.ts';
import { postgresStorageOver } from './storage.ts';
import { addBrain, migratedPglite } from './testing/fixtures.ts';
import { insertRecord } from './testing/records.ts';

const db = await migratedPglite();
const tenant = { project: 'p', env: 'test' as const };

describe('CJK and Korean words on the PostgreSQL engine', () => {
  it('a Record written before migration 030 is given its words, and found by a word inside a compound', async () => {
    await addBrain(db, 'brn_cjk_old');
    await insertRecord(db, {
      brainUid: 'brn_cjk_old',
      id: 'r_tower',
      text: '東京タワーの近くのカフェで会った。',
    });
    await insertRecord(db, { brainUid: 'brn_cjk_old', id: 'r_kyoto', text: '京都に行きました。' });
    await insertRecord(db, { brainUid: 'brn_cjk_old', id: 'r_ferry', text: 'The ferry leaves at nine.' });
    const lexical = pgLexicalIndex(db);
    const found = async (word: string) =>
      (
        await lexical.search({
          terms: [word],
          scope: { brainUid: 'brn_cjk_old', excludeLocalOnly: false },
          cut: 10,
          limit: 10,
        })
      ).map((h) => h.recordId);
    // As `english` read them: each sentence one word.
    assert.deepEqual(await found('京都'), []);
    assert.equal(await indexCompoundWords(db), true);
    assert.deepEqual(await found('京都'), ['r_kyoto']);
    assert.deepEqual(await found('東京'), ['r_tower']);
    assert.deepEqual(await found('タワー'), ['r_tower']);
    assert.deepEqual(await found('ferry'), ['r_ferry']);
    const words = await db.query<{ id: string; words: string | null }>(
      "SELECT id, words FROM records WHERE brain_uid = 'brn_cjk_old' ORDER BY id",
    );
    assert.equal(words.rows.find((r) => r.id === 'r_ferry')!.words, null, 'other text keeps none');
    assert.equal(await indexCompoundWords(db), false, 'nothing left to give words to');
  });

  it('a Context finds a word inside a compound and a Korean word with another particle', async () => {
    const kept: PgClient = { ...db, close: async () => {} };
    const engine = (await openPostgresEngine({ open: () => postgresStorageOver(kept) }, {})).engine;
    after(() => engine.close());
    await engine.createBrain(tenant, { id: 'cjk' });
    const write = async (text: string) =>
      (
        await engine.rememberRecord(
          tenant,
          'cjk',
          { content: { kind: 'message', speaker: 'Yuki', text } },
          {},
        )
      ).record.id;
    const tower = await write('東京タワーの近くのカフェで友達に会った。');
    const hospital = await write('我在北京协和医院工作。');
    const seoul = await write('서울에 친구가 살아요.');
    await engine.idle();
    const ask = async (query: string) => {
      const c = await engine.createContext(tenant, 'cjk', { query }, { requestId: 'req_cjk' });
      assert.equal(c.status, 'ready');
      return c.status === 'ready' ? c.citations.map((x) => x.record_id) : [];
    };
    assert.deepEqual(await ask('東京'), [tower]);
    assert.deepEqual(await ask('タワー'), [tower]);
    assert.deepEqual(await ask('医院'), [hospital]);
    assert.deepEqual(await ask('서울에서'), [seoul]);
  });
});
