import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TypedContent } from '../../contract/index.ts';
import { normalizeStatement, recordText } from './record-text.ts';
import { createRuleDeriver } from './rule-deriver.ts';
import { attributeSentence, otherPersonSlot, slotSentences } from './slot-sentences.ts';

// Derivation runs on the server's event loop: a Record whose text makes a regex backtrack
// quadratically froze every request (a run of 160,000 commas: 30 s; the 1,000,000 characters a Record
// may hold: some 20 minutes). These texts are the shapes that make regexes backtrack: long runs of one
// character class followed by something that fails the match. Linear work takes milliseconds here; the
// bound only tells a hang from a pass, it is no performance target (ESLint's regexp rules guard the
// patterns themselves).
const n = 200_000;
const shapes: Record<string, string> = {
  commas: `a${','.repeat(n)}b`,
  'sentence ends': `a${'.!;:'.repeat(n / 4)}b`,
  spaces: `a${' '.repeat(n)}b`,
  'spaces after a verb': `I started${' '.repeat(n)}x`,
  'spaces then at': `I started${' '.repeat(n)}at`,
  quotes: `I live in Lisbon${"'’.".repeat(n / 3)}x`,
  'repeated lead': `I ${'just '.repeat(n / 5)}x`,
  'capitalised words': `I moved to ${'Aa '.repeat(n / 3)}.`,
  'joined statements': `I live in Porto${' and'.repeat(n / 4)} x`,
  'leaning words': `I live in Porto and ${'so '.repeat(n / 3)}there`,
  denials: `I live in Braga,${' not'.repeat(n / 4)} Porto x`,
  'jobs taken': `I got${' a new'.repeat(n / 5)} job at Globex x`,
  'a named person': `${'Btw, '.repeat(n / 5)}My sister Ana moved from${' Aa'.repeat(n / 3)} x`,
  'a named relation': `My manager is ${'Aa '.repeat(n / 3)}x`,
  'an age': `I'm ${'1'.repeat(n)} years old x`,
  'a diet': `${'Actually, '.repeat(n / 10)}I'm not a vegan${' '.repeat(n)}any more x`,
  'a status': `I've just got married${' '.repeat(n)}. x`,
  "a chat's end": `I'm vegan${' lol haha 💍!'.repeat(n / 12)} x`,
  'emoji after a value': `My favourite colour is blue${' 👍🏽 lol'.repeat(n / 8)}`,
  'a school': `I'm a ${'phd '.repeat(n / 4)}student at ${'Aa of '.repeat(n / 6)}x`,
  newlines: `a${'\n'.repeat(n)}b`,
  'hard-wrapped lines': `${'I went to the market and bought some figs and the\n'.repeat(n / 50)}x`,
  'wrapped list items': `${'- I went to the market and bought some figs and the\n  figs\n'.repeat(n / 60)}x`,
  'spaces after a coming value': `I'm moving to Berlin${' '.repeat(n)}x`,
  'a coming day in words': `I'm starting at Acme on the${' the'.repeat(n / 4)} 5th x`,
  'lines handing over': `${'ines said:\n'.repeat(n / 11)}x`,
  'handed-over paragraphs': `${'ines said:\nhi\n\nanyway\n'.repeat(n / 25)}x`,
  'a shout': `${'AB '.repeat(n / 3)}x`,
  'a relation said after': `${'Aa '.repeat(n / 3)}is my boss now x`,
  'news of someone else': `got the job at Acme (${'for '.repeat(n / 4)}carla x`,
  'short sentences': 'A. '.repeat(n / 3),
  'a plan called off': `the porto move is off${' '.repeat(n)}x`,
  'lead-ins to a plan called off': `${'ugh, '.repeat(n / 5)}the move is off x`,
  'words of a plan called off': `the ${'aa '.repeat(n / 3)}move is off x`,
  'a move not made': `we're not moving to porto${' '.repeat(n)}after all x`,
  'a plan called off, then more': `revolut pulled the offer${' :('.repeat(n / 3)} x`,
  'lead-ins said two ways': `${'so yeah '.repeat(n / 8)}the move is offx off`,
  'a job lost': `got laid off from ${'Aa '.repeat(n / 3)}x`,
  'a partner dated': `dating carla${' for a month'.repeat(n / 12)} x`,
  'an address to use': `use ana@x.com${' x'.repeat(n / 2)} from now on`,
  'lead-ins before a home': `${'ok. '.repeat(n / 4)}I live in Porto`,
  'a change of plans, then more': `change of plans${' '.repeat(n)}x. I live in Porto`,
  'what a home is like, said after it': `Ana lives in Porto. ${'It is nice. '.repeat(n / 12)}x`,
  'a place said again and again': `Ana lives in Porto. Rent is high${' there'.repeat(n / 6)} too x`,
  'a month as a name': `May lives in ${'Aa '.repeat(n / 3)}in 2023 x`,
  'a courtesy after a number': `my number is 912 345 678${' '.repeat(n)}if u need it x`,
};

const me = { type: 'person' as const, name: 'Ana' };

for (const [shape, text] of Object.entries(shapes)) {
  test(`derivation of ${shape} (${text.length.toLocaleString('en')} characters) takes linear time`, () => {
    // The process's CPU, not the clock: a machine busy with other work must not fail it, and
    // backtracking gone quadratic at this size takes minutes of CPU.
    const started = process.cpuUsage();
    const contents: TypedContent[] = [
      { kind: 'message', text, speaker: 'Ana' },
      { kind: 'document', text },
      { kind: 'fact', subject: text.slice(0, 2000), predicate: 'note', value: text },
    ];
    for (const content of contents) {
      const record = {
        id: 'rec_1',
        content,
        text: recordText(content),
        sourceName: null,
        occurredAt: '2024-01-01T00:00:00Z',
      };
      const claims = createRuleDeriver().derive(record, { self: me });
      for (const c of claims) normalizeStatement(c.statement);
    }
    // Of the text alone, whatever its kind: once.
    slotSentences(text);
    otherPersonSlot(text);
    attributeSentence(text);
    const used = process.cpuUsage(started);
    const ms = Math.round((used.user + used.system) / 1000);
    assert.ok(ms < 10_000, `${shape}: ${ms} ms of CPU`);
  });
}
