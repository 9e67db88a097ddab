import assert from 'node:assert/strict';
import { test } from 'node:test';
import { speakersByFirstName, speakersOfEach } from './speakers-by-first-name.ts';

test('the speakers of several first names, the messages read once for all of them', async () => {
  const messages = [
    { seq: 1, speaker: 'Petra Kos' },
    { seq: 2, speaker: 'Marko Babić' },
    { seq: 3, speaker: 'Marko Horvat' },
    { seq: 4, speaker: null },
  ];
  const reads: number[] = [];
  const since = (after: number) => {
    reads.push(after);
    return Promise.resolve(messages.filter((m) => m.seq > after));
  };
  const byFirst = speakersByFirstName();
  assert.deepEqual(await speakersOfEach(byFirst, 'b', ['petra', 'marko', 'ana', 'petra'], since), [
    { first: 'petra', speakers: ['petra kos'] },
    { first: 'marko', speakers: ['marko babic', 'marko horvat'] },
  ]);
  assert.deepEqual(reads, [0], 'one read for every word');
  // The next request reads on from the last message read.
  messages.push({ seq: 5, speaker: 'Ana Jurić' });
  assert.deepEqual(await speakersOfEach(byFirst, 'b', ['ana'], since), [
    { first: 'ana', speakers: ['ana juric'] },
  ]);
  assert.deepEqual(reads, [0, 4]);
});
