import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseMbox } from '../../server/import/formats/mbox.ts';
import { collect, writeTree } from '../../server/import/test-support.ts';
import { tenant, withBrain } from './local-helpers.ts';

// The landlord's mail, Ivo's reply quoting it, and the landlord's answer quoting both (">>"): the old
// figure, 720 EUR, is in all three texts, said only by the landlord, in the first.
const mbox = `From petar@stan.example Tue Nov  4 09:12:00 2026
From: Petar Horvat <petar@stan.example>
To: Ivo Maric <ivo@mail.example>
Subject: Rent from February
Date: Tue, 4 Nov 2026 09:12:00 +0100
Message-ID: <rent-1@stan.example>

Dear Ivo,

as announced, we will raise the rent for the flat from 650 EUR to 720 EUR per month from February.

Kind regards,
Petar Horvat

From ivo@mail.example Tue Nov  4 18:40:00 2026
From: Ivo Maric <ivo@mail.example>
To: Petar Horvat <petar@stan.example>
Subject: Re: Rent from February
Date: Tue, 4 Nov 2026 18:40:00 +0100
Message-ID: <rent-2@mail.example>
In-Reply-To: <rent-1@stan.example>
References: <rent-1@stan.example>

Hi Petar,

That is more than I can pay. Could we agree on 700 EUR?

On Tue, 4 Nov 2026 at 09:12, Petar Horvat <petar@stan.example> wrote:
> Dear Ivo,
>
> as announced, we will raise the rent for the flat from 650 EUR to 720 EUR per month from February.

From petar@stan.example Fri Nov  7 10:05:00 2026
From: Petar Horvat <petar@stan.example>
To: Ivo Maric <ivo@mail.example>
Subject: Re: Rent from February
Date: Fri, 7 Nov 2026 10:05:00 +0100
Message-ID: <rent-3@stan.example>
In-Reply-To: <rent-2@mail.example>
References: <rent-1@stan.example> <rent-2@mail.example>

Hi Ivo,

Agreed: 700 EUR per month from February.

On Tue, 4 Nov 2026 at 18:40, Ivo Maric <ivo@mail.example> wrote:
> That is more than I can pay. Could we agree on 700 EUR?
>
>> as announced, we will raise the rent for the flat from 650 EUR to 720 EUR per month from February.
`;

async function brainOf(which: number[]) {
  const tree = writeTree({ 'mail.mbox': mbox });
  after(tree.remove);
  const { records } = await collect(parseMbox(join(tree.root, 'mail.mbox'), { selfName: 'Ivo Maric' }));
  assert.equal(records.length, 3);
  const { engine } = await withBrain();
  await engine.createBrain(tenant, { id: 'mail', self: { type: 'person', name: 'Ivo Maric' } });
  for (const i of which) await engine.rememberRecord(tenant, 'mail', records[i]!.body, {});
  await engine.idle();
  return engine;
}

/** The Context's blocks, each as its header line and its quote. */
function blocksOf(text: string): Array<{ header: string; quote: string }> {
  const boundary = /#(mnemo-\d{9}) /u.exec(text)![1]!;
  return text
    .split(new RegExp(`^#${boundary} `, 'mu'))
    .slice(1)
    .map((b) => {
      const cut = b.indexOf('\n');
      return { header: b.slice(0, cut), quote: b.slice(cut + 1).trimEnd() };
    });
}

test("mail: a reply's block quotes the replier's words, not the mail it quotes, when the thread holds that mail", async () => {
  const engine = await brainOf([0, 1, 2]);
  const ctx = await engine.createContext(
    tenant,
    'mail',
    { query: 'How much is my rent from February?', include: ['citations'] },
    { requestId: 'req_test' },
  );
  assert.ok(ctx.status === 'ready', JSON.stringify(ctx));
  const blocks = blocksOf(ctx.text!);
  assert.equal(blocks.length, 3, ctx.text!);
  for (const b of blocks) {
    // Whoever the block names, its quote is that person's own words: no quoted line, no "wrote:" line.
    assert.doesNotMatch(b.quote, /^>|wrote:$/mu, ctx.text!);
    // The mail's own header lines are no words of anyone's; the subject is in the block's header.
    assert.doesNotMatch(b.quote, /^(?:Subject|From|To): /mu, ctx.text!);
    assert.match(b.header, /subject: "(?:Re: )?Rent from February"/u);
  }
  const ivo = blocks.filter((b) => b.header.includes('(self)'));
  assert.equal(ivo.length, 1, ctx.text!);
  assert.doesNotMatch(ivo[0]!.quote, /720/u);
  assert.match(ivo[0]!.quote, /Could we agree on 700 EUR\?/u);
  // The old figure is quoted once, from the mail that said it, under its writer.
  const old = blocks.filter((b) => b.quote.includes('720 EUR'));
  assert.equal(old.length, 1, ctx.text!);
  assert.match(old[0]!.header, /speaker: "Petar Horvat"/u);
  assert.ok(ctx.citations.every((c) => !/^>/mu.test(c.quote)));
});

test('mail: a reply whose query words are only in the mail it quotes, that mail not held: quoted, and marked so', async () => {
  const engine = await brainOf([1]);
  const ctx = await engine.createContext(
    tenant,
    'mail',
    { query: 'How much is my rent from February?', include: ['citations'] },
    { requestId: 'req_test' },
  );
  assert.ok(ctx.status === 'ready', JSON.stringify(ctx));
  const blocks = blocksOf(ctx.text!);
  assert.equal(blocks.length, 1, ctx.text!);
  assert.match(blocks[0]!.header, /speaker: "Ivo Maric" \(self\)[^\n]* · quoted/u);
  // Only the quote, opened by the line that says whose it is: not the reply's own words with it.
  assert.match(
    blocks[0]!.quote,
    /^On Tue, 4 Nov 2026 at 09:12, Petar Horvat <petar@stan\.example> wrote:\n> Dear Ivo,/u,
  );
  assert.doesNotMatch(blocks[0]!.quote, /Could we agree/u);
});
