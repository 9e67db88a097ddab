import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextAfter, contextBefore } from '../../core/retrieve/turn-shape.ts';
import { pgLexicalIndex } from './lexical-index.ts';
import { addBrain, migratedPglite } from './testing/fixtures.ts';
import { insertRecord } from './testing/records.ts';

const db = await migratedPglite();
const lexical = pgLexicalIndex(db);

/** One word per message, none of which the english stemmer changes. */
const words = ['kiwi', 'lime', 'mango', 'plum', 'fig', 'pear'];

let brains = 0;
async function brain(): Promise<string> {
  const uid = `brn_turn${++brains}`;
  await addBrain(db, uid);
  return uid;
}

const message = (brainUid: string, id: string, text: string, at: number, thread = 't1', speaker?: string) =>
  insertRecord(db, {
    brainUid,
    id,
    text,
    occurredMs: at,
    content: { kind: 'message', text, thread, ...(speaker ? { speaker } : {}) },
  });

/** Each word of a Record's turn with the weight it is indexed at (A text, B before, C speaker, D after). */
async function turnOf(brainUid: string, id: string): Promise<Record<string, string>> {
  const rows = await db.query<{ lexeme: string; weights: string[] }>(
    `SELECT u.lexeme, u.weights FROM turns t JOIN records r ON r.brain_uid = t.brain_uid AND r.n = t.n,
            unnest(t.tsv) AS u WHERE r.brain_uid = $1 AND r.id = $2`,
    [brainUid, id],
  );
  return Object.fromEntries(rows.rows.map((r) => [r.lexeme, [...new Set(r.weights)].sort().join('')]));
}

const search = async (brainUid: string, terms: string[]) =>
  (await lexical.search({ terms, scope: { brainUid, excludeLocalOnly: false }, cut: 100, limit: 100 })).map(
    (r) => r.recordId,
  );

describe('turns on PostgreSQL: a message with its speaker and its thread neighbours', () => {
  it('holds the core shape: the messages before and after it, at their weights', async () => {
    const uid = await brain();
    for (const [i, w] of words.entries()) await message(uid, `m${i}`, w, (i + 1) * 1000);
    for (let i = 0; i < words.length; i++) {
      const expected: Record<string, string> = { [words[i]!]: 'A' };
      for (let k = 1; k <= contextBefore && i - k >= 0; k++) expected[words[i - k]!] = 'B';
      for (let k = 1; k <= contextAfter && i + k < words.length; k++) expected[words[i + k]!] = 'D';
      assert.deepEqual(await turnOf(uid, `m${i}`), expected, `the turn of message ${i}`);
    }
  });

  it('finds a reply through the question before it, ranked below the question', async () => {
    const uid = await brain();
    await message(uid, 'q', 'Where did you go on holiday?', 1000, 't1', 'Ana');
    await message(uid, 'a', 'Lisbon, with my sister.', 2000, 't1', 'Ben');
    await message(uid, 'x', 'Another holiday story', 3000, 't2');
    const holiday = await search(uid, ['holiday']);
    assert.deepEqual([...holiday].sort(), ['a', 'q', 'x']);
    assert.ok(holiday.indexOf('q') < holiday.indexOf('a'), 'the question above its reply');
    assert.deepEqual(await search(uid, ['lisbon']), ['a', 'q']);
    assert.deepEqual(await search(uid, ['ana']), ['q'], 'the speaker of the message, not of its neighbours');
    assert.equal((await turnOf(uid, 'q'))['ana'], 'C');
  });

  it('rewrites the turns around a message that arrives out of order, and around one forgotten', async () => {
    const uid = await brain();
    await message(uid, 'm1', 'kiwi', 1000);
    await message(uid, 'm3', 'mango', 3000);
    await message(uid, 'm4', 'plum', 4000);
    await message(uid, 'm2', 'lime', 2000);
    assert.deepEqual(await turnOf(uid, 'm1'), { kiwi: 'A', lime: 'D' });
    assert.deepEqual(await turnOf(uid, 'm3'), { mango: 'A', kiwi: 'B', lime: 'B', plum: 'D' });
    assert.deepEqual(await turnOf(uid, 'm4'), { plum: 'A', lime: 'B', mango: 'B' });
    await db.query('DELETE FROM records WHERE brain_uid = $1 AND id = $2', [uid, 'm2']);
    assert.deepEqual(await turnOf(uid, 'm1'), { kiwi: 'A', mango: 'D' });
    assert.deepEqual(await turnOf(uid, 'm3'), { mango: 'A', kiwi: 'B', plum: 'D' });
    assert.deepEqual(await turnOf(uid, 'm4'), { plum: 'A', kiwi: 'B', mango: 'B' });
    assert.deepEqual(await turnOf(uid, 'm2'), {});
    assert.deepEqual(await search(uid, ['lime']), [], 'the forgotten words are in no turn');
  });

  it('keeps threads, Brains and Records of other kinds apart', async () => {
    const uid = await brain();
    const other = await brain();
    await message(uid, 'a1', 'kiwi', 1000, 'ta');
    await message(uid, 'b1', 'lime', 2000, 'tb');
    await message(other, 'o1', 'mango', 1500, 'ta');
    await insertRecord(db, {
      brainUid: uid,
      id: 'doc',
      text: 'plum',
      kind: 'document',
      occurredMs: 1200,
      content: { kind: 'document', text: 'plum', thread: 'ta', speaker: 'Ana' },
    });
    await message(uid, 'a2', 'fig', 3000, 'ta');
    assert.deepEqual(await turnOf(uid, 'a1'), { kiwi: 'A', fig: 'D' });
    assert.deepEqual(await turnOf(uid, 'a2'), { fig: 'A', kiwi: 'B' });
    assert.deepEqual(await turnOf(uid, 'doc'), { plum: 'A' });
    assert.deepEqual(await turnOf(other, 'o1'), { mango: 'A' });
  });

  it('goes with its Brain', async () => {
    const uid = await brain();
    await message(uid, 'm1', 'kiwi', 1000);
    await message(uid, 'm2', 'lime', 2000);
    await db.query('DELETE FROM brains WHERE uid = $1', [uid]);
    const left = await db.query('SELECT 1 FROM turns WHERE brain_uid = $1', [uid]);
    assert.equal(left.rows.length, 0);
  });
});
