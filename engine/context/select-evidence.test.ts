import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bestPassage, densestHits, quoteChars } from './select-evidence.ts';

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Line ${i} about ${topic} goes on for a while here.`).join(' ');

describe('bestPassage', () => {
  it('quotes a short note whole, headings and every paragraph', () => {
    const note =
      '# Japan trip\n\nFlights booked with ANA, leaving 14 April.\n\nHotel in Kyoto: Ryokan Yachiyo.\n';
    assert.equal(bestPassage(note, ['hotel']), note.trim());
    assert.equal(bestPassage(`  ${note}`, ['nothing']), note.trim());
  });

  it('in a long text: the best paragraph, with the heading above it, and not the rest', () => {
    const text = [
      '# Garden',
      filler('roses', 8),
      '# Travel',
      'Flights to Lisbon leave on 3 May from gate 12.',
      filler('budgets', 8),
    ].join('\n\n');
    assert.ok(text.length > quoteChars);
    const got = bestPassage(text, ['flights', 'lisbon']);
    assert.equal(got, '# Travel\n\nFlights to Lisbon leave on 3 May from gate 12.');
    assert.ok(text.includes(got));
  });

  it('widens to a neighbouring paragraph that shares words the best one lacks, within the size', () => {
    const text = [
      filler('roses', 8),
      'The hotel is Ryokan Yachiyo in Kyoto.',
      'Breakfast there is served at seven.',
      filler('budgets', 8),
    ].join('\n\n');
    assert.ok(text.length > quoteChars);
    assert.equal(
      bestPassage(text, ['hotel', 'kyoto', 'breakfast']),
      'The hotel is Ryokan Yachiyo in Kyoto.\n\nBreakfast there is served at seven.',
    );
    // A neighbour that adds no query word stays out.
    assert.equal(bestPassage(text, ['hotel', 'kyoto']), 'The hotel is Ryokan Yachiyo in Kyoto.');
  });

  it('never grows past the quote size: a far match is left to its own quote', () => {
    const text = ['Kyoto hotel booked.', `Breakfast at seven. ${filler('roses', 20)}`].join('\n\n');
    assert.ok(text.length > quoteChars);
    assert.equal(bestPassage(text, ['kyoto', 'hotel', 'breakfast']), 'Kyoto hotel booked.');
  });

  it('a heading that matches best takes the paragraph under it', () => {
    const text = ['# Japan trip', 'Flights leave on 14 April.', filler('roses', 20)].join('\n\n');
    assert.ok(text.length > quoteChars);
    assert.equal(bestPassage(text, ['japan']), '# Japan trip\n\nFlights leave on 14 April.');
  });

  it('in a very long text, looks where the query words gather, not at their first occurrence', () => {
    const answer =
      '**Database key (desktop).** 32 random bytes, stored in the db-key file, encrypted by safeStorage.';
    const text = [
      '# Desktop app and UI',
      filler('windows', 60),
      'The key of the API is shown once.',
      filler('menus', 60),
      answer,
      filler('packaging', 60),
    ].join('\n\n');
    assert.ok(text.length > 8 * quoteChars); // past the 6,000 characters below which texts are segmented whole
    assert.equal(densestHits(text, ['database', 'key', 'stored', 'desktop']), text.indexOf(answer) + 2);
    assert.equal(bestPassage(text, ['database', 'key', 'stored', 'desktop']), answer);
    assert.equal(densestHits(text, ['nowhere']), 0);
    // Only at a word start, as matchedTerms matches: "monkey" is not "key".
    assert.equal(
      densestHits(`a monkey ${filler('x', 3)} key`, ['key']),
      `a monkey ${filler('x', 3)} `.length,
    );
  });
});
