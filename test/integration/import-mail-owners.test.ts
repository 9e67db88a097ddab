import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Memory } from '../../engine/contract/index.ts';
import { parseMbox } from '../../server/import/formats/mbox.ts';
import { collect, writeTree } from '../../server/import/test-support.ts';
import { tenant, withBrain } from './local-helpers.ts';

// A thread as Gmail writes it: Carol's mail, Ana's plain-text reply quoting it, and Carol's HTML-only
// reply quoting Ana in a <blockquote>. Parsed by the mbox importer, derived by the local engine.
const mbox = `From carol@acme.example Mon Mar  4 10:02:00 2024
From: Carol Diaz <carol@acme.example>
To: Ana Silva <ana@acme.example>
Subject: Q2 budget
Date: Mon, 4 Mar 2024 10:02:00 +0000
Message-ID: <q2-1@acme.example>

Hi Ana,

The Q2 marketing budget is 48,000 EUR. We need to cut travel by 20%.

Best,
Carol

From ana@acme.example Mon Mar  4 11:00:00 2024
From: Ana Silva <ana@acme.example>
To: Carol Diaz <carol@acme.example>
Subject: Re: Q2 budget
Date: Mon, 4 Mar 2024 11:00:00 +0000
Message-ID: <q2-2@acme.example>
In-Reply-To: <q2-1@acme.example>
References: <q2-1@acme.example>

Hi Carol,

I will cut the taxis to the airport.

On Mon, 4 Mar 2024 at 10:02, Carol Diaz <carol@acme.example> wrote:

> Hi Ana,
>
> The Q2 marketing budget is 48,000 EUR. We need to cut travel by 20%.

--
Ana Silva

From carol@acme.example Mon Mar  4 12:00:00 2024
From: Carol Diaz <carol@acme.example>
To: Ana Silva <ana@acme.example>
Subject: Re: Q2 budget
Date: Mon, 4 Mar 2024 12:00:00 +0000
Message-ID: <q2-3@acme.example>
References: <q2-1@acme.example> <q2-2@acme.example>
Content-Type: text/html; charset=utf-8

<p>Great, the offsite stays in Porto.</p><blockquote><p>I will cut the taxis to the airport.</p></blockquote>
`;

test('mail: a reply owns only its own words; headers, quotes, greetings and signatures are no Memories', async () => {
  const tree = writeTree({ 'mail.mbox': mbox });
  after(tree.remove);
  const { records, skips } = await collect(
    parseMbox(join(tree.root, 'mail.mbox'), { selfName: 'Ana Silva' }),
  );
  assert.deepEqual(skips, []);
  assert.equal(records.length, 3);
  const { engine } = await withBrain();
  await engine.createBrain(tenant, { id: 'mail', self: { type: 'person', name: 'Ana Silva' } });
  for (const r of records) await engine.rememberRecord(tenant, 'mail', r.body, {});
  await engine.idle();
  const memories: Memory[] = (await engine.listMemories(tenant, 'mail', { limit: 200 })).data;
  const said = memories
    .map((m) => `${m.owner.state}${m.owner.entity ? `: ${m.owner.entity}` : ''} | ${m.statement}`)
    .sort();
  assert.deepEqual(said, [
    'other: Carol Diaz | Great, the offsite stays in Porto.',
    'other: Carol Diaz | The Q2 marketing budget is 48,000 EUR.',
    'other: Carol Diaz | We need to cut travel by 20%.',
    'self: Ana Silva | I will cut the taxis to the airport.',
  ]);
});

test("mail: a Context quotes another's words in a reply with the line that says whose they are", async () => {
  const tree = writeTree({ 'mail.mbox': mbox });
  after(tree.remove);
  const { records } = await collect(parseMbox(join(tree.root, 'mail.mbox'), { selfName: 'Ana Silva' }));
  const { engine } = await withBrain();
  await engine.createBrain(tenant, { id: 'mail', self: { type: 'person', name: 'Ana Silva' } });
  // Ana's reply alone: Carol's mail it quotes is not in this Brain.
  await engine.rememberRecord(tenant, 'mail', records[1]!.body, {});
  await engine.idle();
  const ctx = await engine.createContext(
    tenant,
    'mail',
    { query: 'What is the Q2 marketing budget?', budget: { tokens: 150 }, include: ['citations'] },
    { requestId: 'req_test' },
  );
  assert.ok(ctx.status === 'ready', JSON.stringify(ctx));
  assert.equal(ctx.citations.length, 1);
  assert.match(
    ctx.citations[0]!.quote,
    /^On Mon, 4 Mar 2024 at 10:02, Carol Diaz <carol@acme\.example> wrote:\n\n> Hi Ana,/u,
  );
  assert.match(ctx.text!, /speaker: "Ana Silva" \(self\)[^\n]*\nOn Mon, 4 Mar 2024 at 10:02, Carol Diaz/u);
});
