import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LaneInput } from './lane.ts';
import { namedSpeakers, selfNameWords, withoutSpeakers } from './entity-lane.ts';

/** A Brain's thread index as the speaker checks read it: its speakers, folded. */
const threadsOf = (speakers: readonly string[]) => ({
  speakers: async (_b: string, names: string[]) => speakers.filter((s) => names.includes(s)),
  speakersFirstNamed: async (_b: string, firsts: string[]) =>
    firsts.flatMap((first) => {
      const called = speakers.filter((s) => s.split(' ')[0] === first);
      return called.length > 0 ? [{ first, speakers: called }] : [];
    }),
});

describe('withoutSpeakers (the query as the semantic lane embeds it)', () => {
  it('drops the named speakers, possessives and full names included', () => {
    assert.equal(
      withoutSpeakers('What activities does Melanie partake in?', ['melanie']),
      'What activities does partake in?',
    );
    assert.equal(
      withoutSpeakers("Where is Melanie's pottery class?", ['melanie']),
      'Where is pottery class?',
    );
    assert.equal(withoutSpeakers('Did Ana  Lima meet Ben?', ['ana lima', 'ben']), 'Did meet ?');
  });

  it('leaves words that only contain a name, and a query that is nothing but names', () => {
    assert.equal(withoutSpeakers('Annabel and Banana', ['ana', 'ann']), 'Annabel and Banana');
    assert.equal(withoutSpeakers('Melanie', ['melanie']), 'Melanie');
    assert.equal(withoutSpeakers('What (about) C++?', ['c++']), 'What (about) ?');
  });

  it('finds the folded names however the query writes them, and cuts them as written', () => {
    assert.equal(withoutSpeakers('What did José paint?', ['jose']), 'What did paint?');
    assert.equal(withoutSpeakers("Where is ZOË's studio?", ['zoe']), 'Where is studio?');
    assert.equal(withoutSpeakers('Did Jürgen Groß call?', ['jurgen gross']), 'Did call?');
  });
});

describe("selfNameWords (the self's name a question in her own Brain is searched without)", () => {
  /** A Brain of `self` whose speakers are `speakers` (folded), asked `query`. */
  const asked = (query: string, self: string | null, speakers: string[], nicknames: string[] = []) =>
    selfNameWords({
      query,
      eligibility: { brainUid: 'b' },
      memo: new Map(),
      threads: threadsOf(speakers),
      slots: {
        selfName: async () => self,
        // Her nickname slot's Memories, as the deriver writes them ("Lena Kovac's nickname is Lenny").
        held: async () =>
          nicknames.map((n) => ({
            statement: `${self}'s nickname is ${n}`,
            subject: self,
            predicate: 'nickname',
          })),
      },
    } as unknown as Pick<LaneInput, 'threads' | 'slots' | 'query' | 'eligibility' | 'memo'>);
  const speakers = ['lena kovac', 'jonas weber', 'sam ortiz'];

  it('her first name or her whole name, as the query says it', async () => {
    assert.deepEqual(await asked('What should I not cook for Lena?', 'Lena Kovac', speakers), ['lena']);
    assert.deepEqual(await asked("Where does Lena Kovac's sister live?", 'Lena Kovac', speakers), [
      'lena',
      'kovac',
    ]);
    assert.deepEqual(await asked('Is LÉNA vegetarian?', 'Léna Kovač', ['lena kovac']), ['lena']);
  });

  it('a nickname she said she goes by, as her name: "Tom" of Tomislav, who said people call him Tom', async () => {
    const tom = ['tomislav kovacevic', 'assistant'];
    assert.deepEqual(await asked('Does Tom have a girlfriend?', 'Tomislav Kovačević', tom, ['Tom']), ['tom']);
    assert.deepEqual(await asked("Where is Tom's flat?", 'Tomislav Kovačević', tom, ['Tom']), ['tom']);
    // Without it "Tom" is anyone's name, a word the search keeps.
    assert.deepEqual(await asked('Does Tom have a girlfriend?', 'Tomislav Kovačević', tom), []);
    // Nor a word that only starts with it, nor beside another speaker.
    assert.deepEqual(await asked('Where does Tomo live?', 'Tomislav Kovačević', tom, ['Tom']), []);
    assert.deepEqual(
      await asked('What did Jonas tell Tom?', 'Tomislav Kovačević', [...tom, 'jonas'], ['Tom']),
      [],
    );
  });

  it('a nickname that is an everyday word, only written as a name: "Where will Luka work?" is not hers', async () => {
    const will = ['william smith', 'assistant'];
    assert.deepEqual(await asked('Where does Will work?', 'William Smith', will, ['Will']), ['will']);
    assert.deepEqual(await asked('Where will Luka work?', 'William Smith', will, ['Will']), []);
    assert.deepEqual(await asked('Will Luka move to Split?', 'William Smith', will, ['Will']), []);
    assert.deepEqual(await asked('where will luka live next year?', 'William Smith', will, ['Will']), []);
    // A name no word shares, in any case.
    assert.deepEqual(
      await asked('where does tom live?', 'Tomislav Kovačević', ['tomislav kovacevic'], ['Tom']),
      ['tom'],
    );
  });

  it('none beside another speaker, for another person, or in a Brain without a self', async () => {
    // A speaker as a chat export names him.
    assert.deepEqual(
      await asked('What did Jonas tell Lena about dinner?', 'Lena Kovac', ['lena kovac', 'jonas']),
      [],
    );
    assert.deepEqual(await asked('What should I not cook for Jonas?', 'Lena Kovac', speakers), []);
    assert.deepEqual(await asked('What should I not cook for Lena?', null, speakers), []);
    assert.deepEqual(await asked('What does Magdalena cook?', 'Lena Kovac', speakers), []);
  });
});

describe('namedSpeakers: a first name alone names the one speaker called by it', () => {
  const named = (query: string, speakers: string[], self: string | null = 'Nina Babić') =>
    namedSpeakers({
      query,
      eligibility: { brainUid: 'b' },
      memo: new Map(),
      threads: threadsOf(speakers),
      slots: { selfName: async () => self, held: async () => [] },
    } as unknown as Pick<LaneInput, 'threads' | 'slots' | 'query' | 'eligibility' | 'memo'>);
  const chat = ['nina babic', 'petra kos', 'lucija', 'marko horvat', 'marko babic', 'will turner'];

  it('"Petra" of a chat export\'s "Petra Kos", with the name as the query says it', async () => {
    assert.deepEqual(await named('Did Petra have her baby?', chat), ['petra', 'petra kos']);
    assert.deepEqual(await named("did petra's baby arrive", chat), ['petra', 'petra kos']);
    // Named whole, as before.
    assert.deepEqual(await named('Did Petra Kos have her baby?', chat), ['petra kos']);
    assert.deepEqual(await named('Where does Lucija live?', chat), ['lucija']);
  });

  it('not a first name two speakers share, nor an everyday word written as a word', async () => {
    assert.deepEqual(await named('What did Marko say?', chat), []);
    assert.deepEqual(await named('Where will Lucija live?', chat), ['lucija']);
    assert.deepEqual(await named('What did Will say?', chat), ['will', 'will turner']);
  });
});
