import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { matchedTerms, pointsOnlyBack, queryTerms } from './query-terms.ts';
import { foldText, foldWithOffsets } from '../shared/fold-text.ts';

describe('query terms', () => {
  it('are folded as the lexical index folds its text', () => {
    assert.deepEqual(queryTerms('Straße nach Köln'), ['strasse', 'nach', 'koln']);
    assert.deepEqual(queryTerms('Café in MÜNCHEN'), ['cafe', 'munchen']);
    assert.deepEqual(queryTerms('Where is the dentist?'), ['dentist']);
    // The person an agent asks about, as "I" and "my" are.
    assert.deepEqual(queryTerms("Is the user vegan? What's the user's diet?"), ['vegan', 'diet']);
    // "am" is "is" said of oneself: as a term it met every "I am ..." a person wrote.
    assert.deepEqual(queryTerms('What am I doing on December 19?'), ['doing', 'december', '19']);
    // Modal verbs name nothing, as "would" and "could" do: "should" met every "We should …".
    assert.deepEqual(queryTerms('What should I not cook for Lena?'), ['cook', 'lena']);
    assert.deepEqual(queryTerms('Shall we meet, or might it rain?'), ['meet', 'rain']);
  });

  it('a question naming only something said before it is told from one naming what it asks about', () => {
    for (const q of [
      'What was it about?',
      'Tell me more about that',
      'Who is she?',
      "What's that?",
      'What did he mean?',
    ])
      assert.equal(pointsOnlyBack(q), true, q);
    // A word of its own to search by, no word pointing back, or another language: searched as ever.
    for (const q of [
      'What was the novel about?',
      'Tell me more about that cat',
      'What do you know about me?',
      'What did we talk about last week?',
      'Is it vegan?',
      'O que foi isso?',
      '',
    ])
      assert.equal(pointsOnlyBack(q), false, q);
  });

  it('drop "remember" and "recall" where they frame the question, not where they are what it asks', () => {
    assert.deepEqual(queryTerms('What should I remember about Marko?'), ['marko']);
    assert.deepEqual(queryTerms('Do you remember where I parked?'), ['parked']);
    assert.deepEqual(queryTerms('What do you recall of the trip?'), ['trip']);
    assert.deepEqual(queryTerms('What does Joanna do to remember happy memories?'), [
      'joanna',
      'remember',
      'happy',
      'memories',
    ]);
    assert.deepEqual(queryTerms('Remember the milk'), ['remember', 'milk']);
  });

  it("drop the function words of the query's own language, and only of its own", () => {
    assert.deepEqual(queryTerms('Wo ist die Straße?'), ['strasse']);
    assert.deepEqual(queryTerms('O que a Ana disse sobre o trabalho?'), ['ana', 'disse', 'trabalho']);
    assert.deepEqual(queryTerms('¿Qué dijo Ana del trabajo?'), ['dijo', 'ana', 'trabajo']);
    assert.deepEqual(queryTerms("Qu'est-ce que Ana a dit de son travail ?"), ['ana', 'dit', 'travail']);
    assert.deepEqual(queryTerms('Cosa ha detto Ana del lavoro?'), ['detto', 'ana', 'lavoro']);
    // English keeps its words that are another language's function words, and so does a word or two.
    assert.deepEqual(queryTerms('When did her dog die?'), ['dog', 'die']);
    assert.deepEqual(queryTerms('Die Hard was on TV'), ['die', 'hard', 'tv']);
    assert.deepEqual(queryTerms('plus size dress'), ['plus', 'size', 'dress']);
    assert.deepEqual(queryTerms('https://example.de/im/de/io'), ['https', 'example', 'de', 'im', 'io']);
  });

  it('are found in text whatever its case, accents or ß', () => {
    assert.deepEqual(
      matchedTerms('Die Praxis ist in der Hauptstraße, über der Bäckerei.', [
        'hauptstrasse',
        'uber',
        'backerei',
        'post',
      ]),
      ['hauptstrasse', 'uber', 'backerei'],
    );
    // Final sigma folds to σ in both.
    assert.deepEqual(matchedTerms('Οδός Ερμού', queryTerms('οδος')), ['οδοσ']);
    // Still at a word start only.
    assert.deepEqual(matchedTerms('a monkey', ['key']), []);
  });
});

describe('foldWithOffsets', () => {
  it('folds as foldText does, and maps each folded character to where it was written', () => {
    const text = 'Maße: É\u0301tude — ﬁn';
    const { folded, origin } = foldWithOffsets(text);
    assert.equal(folded, foldText(text));
    assert.equal(folded.slice(0, 5), 'masse');
    assert.deepEqual([...origin.slice(0, 5)], [0, 1, 2, 2, 3]);
    assert.equal(origin[folded.indexOf('fi')], text.indexOf('ﬁ'));
    assert.equal(origin[folded.length], text.length);
  });

  it('keeps its offsets in order and within the text, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const { folded, origin } = foldWithOffsets(text);
        assert.equal(origin.length, folded.length + 1);
        for (let i = 1; i < origin.length; i++) assert.ok(origin[i]! >= origin[i - 1]!);
        assert.ok(origin[0]! >= 0 && origin[folded.length] === text.length);
      }),
    );
  });

  it('folds words of Latin, Greek and Cyrillic letters and their marks as foldText does', () => {
    const letters = [...'aAeEsSß ẞéÉüÜñçςΣΟοδόЁёЖж\u0301\u0308 ﬁ'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...letters), { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        assert.equal(foldWithOffsets(text).folded, foldText(text));
      }),
    );
  });
});
