import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { queryTerms } from '../../core/retrieve/query-terms.ts';
import { foldText } from '../../core/shared/fold-text.ts';
import type { SearchScope } from '../../ports/index.ts';
import { pgLexicalIndex } from './lexical-index.ts';
import { addBrain, migratedPglite } from './testing/fixtures.ts';
import { insertMemory, insertRecord, type RecordSpec } from './testing/records.ts';

const db = await migratedPglite();
const lexical = pgLexicalIndex(db);

await addBrain(db, 'brn_lex');
await addBrain(db, 'brn_lex_other');
const rec = (id: string, text: string, over: Partial<RecordSpec>) =>
  insertRecord(db, { brainUid: 'brn_lex', id, text, ...over });
await rec('r_paris', 'Alice flew to Paris for the trips she planned', { occurredMs: 1_000, source: 'chat' });
await rec('r_repeat', 'alice, alice and alice again', { occurredMs: 2_000, source: 'mail' });
await rec('r_local', 'alice kept this on her laptop', { occurredMs: 3_000, visibility: 'local_only' });
await rec('r_bare', 'alice is wrong about that', { occurredMs: 4_000, kind: 'correction' });
await rec('r_cited', 'alice corrected the date', { occurredMs: 5_000, kind: 'correction' });
await insertMemory(db, 'brn_lex', 'mem_cited', 'r_cited', 'alice corrected the date');
await rec('r_nosource', 'alice without a source', { occurredMs: 6_000 });
await insertRecord(db, { brainUid: 'brn_lex_other', id: 'r_elsewhere', text: 'alice in Paris elsewhere' });
// A Brain where "coffee" is in most Records and "saxophone" in one, said at length.
await addBrain(db, 'brn_idf');
const said = (id: string, text: string) => insertRecord(db, { brainUid: 'brn_idf', id, text });
await said('r_coffee', 'coffee first');
await said('r_sax', 'we talked for a long while about the saxophone lessons she takes downtown on Fridays');
for (const i of [1, 2, 3, 4]) await said(`r_coffee_${i}`, `more coffee at breakfast, cup ${i}`);
await addBrain(db, 'brn_fold');
const folded = (id: string, text: string) => insertRecord(db, { brainUid: 'brn_fold', id, text });
await folded('r_cafe', 'Meet at the café on Rue Molière');
await folded('r_zoe', 'ZOË booked the hotel in Москве');
await folded('r_plain', 'Bring the cafe receipt');
await folded('r_strasse', 'The flat on Hauptstraße has a balcony');
await folded('r_shout', 'PARKING ON BAHNHOFSTRASSE IS FREE');
await folded('r_odos', 'Η ΟΔΟΣ ΕΡΜΟΥ είναι κλειστή');
// Words joined by punctuation, which the `english` parser alone reads as one token each.
const joined: Record<string, string> = {
  r_photo: '[attachment: mum-garden.jpg]',
  r_notes: 'Saved in notes_2024.md',
  r_report: 'Sent Sam q4-report.pdf',
  r_link: 'https://photos.example.com/albums/garden-party?id=7',
  r_mail: 'Write to ana.lima@example.com',
  r_scan: 'It is ~/docs/passport_scan.PDF, 3.5 MB',
};
await addBrain(db, 'brn_joined');
for (const [id, text] of Object.entries(joined)) await insertRecord(db, { brainUid: 'brn_joined', id, text });

const scope = (over: Partial<SearchScope> = {}): SearchScope => ({
  brainUid: 'brn_lex',
  excludeLocalOnly: false,
  ...over,
});
const ids = async (terms: string[], over: Partial<SearchScope> = {}, cut = 100, limit = 100) =>
  (await lexical.search({ terms, scope: scope(over), cut, limit })).map((r) => r.recordId);

describe('the lexical index over tsvector (LexicalIndex)', () => {
  it('ranks a Record with more of the words above one that repeats a single word, stemmed', async () => {
    const found = await lexical.search({ terms: ['alice', 'trip'], scope: scope(), cut: 100, limit: 100 });
    assert.equal(lexical.backend, 'postgres-tsvector-turns/idf-ts_rank');
    assert.equal(found[0]?.recordId, 'r_paris', 'two of the words ("trips" stems to "trip")');
    assert.ok(found[0]!.score > found[1]!.score);
    assert.ok(found.every((r) => r.score > 0 && Number.isInteger(r.recordN)));
    // Every Record of the Brain with "alice" but the bare correction; none of the other Brain.
    assert.deepEqual(found.map((r) => r.recordId).sort(), [
      'r_cited',
      'r_local',
      'r_nosource',
      'r_paris',
      'r_repeat',
    ]);
    assert.deepEqual(await ids(['zebra']), []);
    assert.deepEqual(await ids([]), []);
    assert.deepEqual(await ids(['the']), [], 'a stop word alone finds nothing');
  });

  it('folds case and accents in the text and the search as the local engine does', async () => {
    const found = async (terms: string[]) =>
      (
        await lexical.search({
          terms,
          scope: { brainUid: 'brn_fold', excludeLocalOnly: false },
          cut: 10,
          limit: 10,
        })
      )
        .map((r) => r.recordId)
        .sort();
    assert.deepEqual(await found(['cafe']), ['r_cafe', 'r_plain']);
    assert.deepEqual(await found(['café']), ['r_cafe', 'r_plain']);
    assert.deepEqual(await found(['moliere']), ['r_cafe']);
    assert.deepEqual(await found(['zoe']), ['r_zoe']);
    assert.deepEqual(await found(['москве']), ['r_zoe'], 'lower case in every script');
    // Full case folding: ß is ss, and a final sigma is a sigma, written either way.
    assert.deepEqual(await found(['hauptstrasse']), ['r_strasse']);
    assert.deepEqual(await found(['HAUPTSTRASSE']), ['r_strasse']);
    assert.deepEqual(await found(['bahnhofstraße']), ['r_shout']);
    assert.deepEqual(await found(['οδός']), ['r_odos']);
    assert.deepEqual(await found(['ερμου']), ['r_odos']);
  });

  it('finds a file name, a link or an address by each word in it, as the local engine cuts them', async () => {
    const found = async (terms: string[]) =>
      (
        await lexical.search({
          terms,
          scope: { brainUid: 'brn_joined', excludeLocalOnly: false },
          cut: 10,
          limit: 10,
        })
      ).map((r) => r.recordId);
    // Every word a query holding the text would search (query-terms.ts) finds its Record.
    for (const [id, text] of Object.entries(joined))
      for (const term of queryTerms(text))
        assert.ok((await found([term])).includes(id), `${JSON.stringify(term)} finds ${text}`);
    assert.deepEqual((await found(['garden'])).sort(), ['r_link', 'r_photo']);
    assert.deepEqual(await found(['mum', 'garden']), ['r_photo', 'r_link'], 'both words above one');
    assert.deepEqual(await found(['notes']), ['r_notes'], 'stemmed as a word of the text');
    assert.deepEqual(await found(['5']), ['r_scan'], 'a number after a point');
  });

  it('finds each word of words joined by any ASCII punctuation, as the local engine cuts them', async () => {
    await addBrain(db, 'brn_joined_random');
    const word = fc.constantFrom(
      'garden',
      'mum',
      'q4',
      '2024',
      '07',
      'photo',
      'x1',
      '1e5',
      'café',
      'www',
      'http',
    );
    const punct = fc.constantFrom(...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ '.split(''));
    const text = fc.tuple(word, fc.array(fc.tuple(fc.array(punct, { minLength: 1, maxLength: 3 }), word)));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(text, async ([first, rest]) => {
        const t = first + rest.map(([p, w]) => p.join('') + w).join('');
        const id = `r_${++n}`;
        await insertRecord(db, { brainUid: 'brn_joined_random', id, text: t });
        for (const term of queryTerms(t)) {
          const hits = await lexical.search({
            terms: [term],
            scope: { brainUid: 'brn_joined_random', excludeLocalOnly: false },
            cut: 1000,
            limit: 1000,
          });
          assert.ok(
            hits.some((h) => h.recordId === id),
            `${JSON.stringify(term)} finds ${JSON.stringify(t)}`,
          );
        }
      }),
      { seed: 33, numRuns: 100 },
    );
  });

  it('weighs a word by its rarity in the Brain: a rare word outranks a common one', async () => {
    const found = await lexical.search({
      terms: ['coffee', 'saxophone'],
      scope: scope({ brainUid: 'brn_idf' }),
      cut: 100,
      limit: 100,
    });
    // Without IDF the short Record with the common word ranks first (its length divides less).
    assert.equal(found[0]?.recordId, 'r_sax');
    assert.ok(found[0]!.score > 10 * found[1]!.score, 'a word in most Records counts next to nothing');
    assert.equal(found.length, 6);
    // Another Brain's Records do not move this Brain's scores: the counts are the Brain's own.
    for (const i of [1, 2, 3, 4, 5, 6])
      await insertRecord(db, { brainUid: 'brn_lex_other', id: `r_sax_${i}`, text: `saxophone ${i}` });
    const again = await lexical.search({
      terms: ['coffee', 'saxophone'],
      scope: scope({ brainUid: 'brn_idf' }),
      cut: 100,
      limit: 100,
    });
    assert.deepEqual(again, found);
  });

  it('honours every condition of the scope as the SQLite lanes do', async () => {
    const alice = (over: Partial<SearchScope>) => ids(['alice'], over).then((x) => x.sort());
    assert.deepEqual(await alice({ excludeLocalOnly: true }), [
      'r_cited',
      'r_nosource',
      'r_paris',
      'r_repeat',
    ]);
    // since, until and as_of are inclusive.
    assert.deepEqual(await alice({ sinceMs: 5_000 }), ['r_cited', 'r_nosource']);
    assert.deepEqual(await alice({ untilMs: 2_000 }), ['r_paris', 'r_repeat']);
    assert.deepEqual(await alice({ asOfMs: 1_000 }), ['r_paris']);
    assert.deepEqual(await alice({ untilMs: 5_000, asOfMs: 3_000 }), ['r_local', 'r_paris', 'r_repeat']);
    // Sources: a Record without one is in no list.
    assert.deepEqual(await alice({ sources: ['chat', 'nowhere'] }), ['r_paris']);
    assert.deepEqual(await alice({ sources: [] }), []);
    // The search's own window: from inclusive, to exclusive.
    assert.deepEqual(await alice({ fromMs: 2_000, toMs: 5_000 }), ['r_local', 'r_repeat']);
    assert.deepEqual(await alice({ fromMs: 2_000, toMs: 5_000, sinceMs: 3_000, excludeLocalOnly: true }), []);
    assert.deepEqual(await ids(['alice'], { brainUid: 'brn_lex_other' }), ['r_elsewhere']);
  });

  it('ranks at most `cut` matches before the scope, and keeps `limit`', async () => {
    const best = await ids(['alice', 'trip']);
    assert.deepEqual(await ids(['alice', 'trip'], {}, 100, 2), best.slice(0, 2));
    // The best match is outside the window: with a cut of one nothing is left, with a deeper one the rest.
    assert.deepEqual(await ids(['alice', 'trip'], { sinceMs: 2_000 }, 1, 10), []);
    assert.deepEqual(await ids(['alice', 'trip'], { sinceMs: 2_000 }, 2, 10), best.slice(1, 2));
  });

  it('answers whether any Record lies in the time window', async () => {
    assert.equal(await lexical.anyInWindow(scope()), true);
    assert.equal(await lexical.anyInWindow(scope({ fromMs: 6_001 })), false);
    assert.equal(await lexical.anyInWindow(scope({ fromMs: 6_000 })), true);
    assert.equal(await lexical.anyInWindow(scope({ fromMs: 1_001, toMs: 2_000 })), false, 'to is exclusive');
    assert.equal(
      await lexical.anyInWindow(scope({ fromMs: 1_001, untilMs: 2_000 })),
      true,
      'until inclusive',
    );
    assert.equal(await lexical.anyInWindow(scope({ sinceMs: 2_001, asOfMs: 2_999 })), false);
    assert.equal(await lexical.anyInWindow(scope({ brainUid: 'brn_none' })), false);
  });
});

describe('folding on PostgreSQL and in JS', () => {
  const mnemoFold = async (s: string) =>
    (await db.query<{ f: string }>('SELECT mnemo_fold($1::text) AS f', [s])).rows[0]!.f;

  it('mnemo_fold and foldText fold tricky words alike, to what Unicode full case folding makes them', async () => {
    const cases: Array<[string, string]> = [
      ['Straße', 'strasse'],
      ['STRASSE', 'strasse'],
      ['GROẞE', 'grosse'],
      ['ΟΔΟΣ', 'οδοσ'],
      ['οδός', 'οδοσ'],
      ['Σίσυφος', 'σισυφοσ'],
      ['ﬁnal ﬀ', 'final ff'],
      ['ŉ ǰ ΐ', 'ʼn j ι'],
      // The iota subscript is an accent here: monotonic Greek finds polytonic.
      ['ᾼ ᾳ τῷ', 'α α τω'],
      ['İstanbul ırmak', 'istanbul ırmak'],
      ['℡ ™ ᴬ', 'tel tm a'],
      ['ＳＴＲＡＳＳＥ', 'strasse'],
      ['Москве Ёлка', 'москве елка'],
      ['\u1c80\u1c83', 'вс'],
      ['Ꭰ ꭰ', 'ꭰ ꭰ'],
      ['Œuvre Æble', 'œuvre æble'],
      ['Cafe\u0301', 'cafe'],
      ['हिन्दी', 'हिन्दी'],
    ];
    for (const [text, want] of cases) {
      assert.equal(foldText(text), want, `foldText(${JSON.stringify(text)})`);
      assert.equal(await mnemoFold(text), want, `mnemo_fold(${JSON.stringify(text)})`);
    }
  });

  it('mnemo_fold folds random text as foldText does, and folding twice changes nothing', async () => {
    // Letters of the scripts Records are written in, upper and lower, accented, and compatibility forms.
    const char = fc.constantFrom(
      ...'aZ09 ,;.-ÄäÖöÜüßẞÉéÈèÇçÑñŁłØøÅåÆæİıŒœΣσςϲΆάΐᾳᾼΩωЁёЙйМмЖжᲀᲈÿŸǅǄǆŉǰﬁﬀﬅＡａ①㎏℡™ᴬℌΩKÅᎠꭰאבגקأبتこカ漢한'.split(
        '',
      ),
    );
    const text = fc.array(fc.oneof(char, fc.string({ unit: 'binary', maxLength: 2 })), { maxLength: 16 });
    await fc.assert(
      fc.asyncProperty(text, async (parts) => {
        const s = parts.join('').replace(/\0/g, '');
        const folded = foldText(s);
        assert.equal(await mnemoFold(s), folded, JSON.stringify(s));
        assert.equal(foldText(folded), folded, JSON.stringify(s));
      }),
      { seed: 27, numRuns: 300 },
    );
  });
});
