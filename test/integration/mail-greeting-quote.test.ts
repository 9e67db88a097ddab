import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseMbox } from '../../server/import/formats/mbox.ts';
import { collect, writeTree } from '../../server/import/test-support.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * At a budget an agent sets, a mail moving a deadline was quoted by its greeting
 * ("Team,", "Sehr geehrte Frau Lindqvist,") and the deadline line was left out; the greetings and
 * sign-offs themselves ("Ihr Praxisteam Dr. Novak") were Memories.
 */
const engines = await bothEngines({ timeZone: 'Europe/Vienna' });

// Paragraphs between the greeting and the deadline line, longer than a quote (quoteChars), so the
// greeting's quote cannot widen to take the deadline in.
const review = [
  'The security review of the customer portal found two blockers last week: the session tokens of the partner login are kept for thirty days, and the export of invoices runs without a rate limit.',
  'Both are fixed on the branch, but the penetration testers can only come back in the second week of January, and the steering group wants their sign-off before anything goes live.',
  'Priya has moved the second migration dry run to the week after that, so the load test moves with it; the go-live checklist stays as it is.',
  'Marketing keeps the announcement mail ready and will send it on the morning of go-live; support gets the new help pages a week before, and the call centre its training in the same week.',
  'I know this is the third move since summer. Sorry, and thank you for the patience.',
].join('\n\n');

const mbox = `From jonas@fernwerk.example Thu Nov 12 16:05:00 2026
From: Jonas Berger <jonas@fernwerk.example>
To: Atlas team <atlas@fernwerk.example>
Subject: Re: Atlas: launch date
Date: Thu, 12 Nov 2026 16:05:00 +0100
Message-ID: <atlas-3@fernwerk.example>

Dear Atlas team,

${review}

New deadline: 3 February 2027.

Jonas

From ordination@novak.example Tue Dec  1 10:00:00 2026
From: Zahnarztpraxis Dr. Novak <ordination@novak.example>
To: Maya Lindqvist <maya@mail.example>
Subject: Terminverschiebung
Date: Tue, 1 Dec 2026 10:00:00 +0100
Message-ID: <novak-2@novak.example>

Sehr geehrte Frau Lindqvist,

leider müssen wir Ihren Termin verschieben. Ihr neuer Termin: Donnerstag, 21. Jänner 2027, 11:00 Uhr.

Mit freundlichen Grüßen
Ihr Praxisteam Dr. Novak
`;

async function mailBrain(engine: Engine, brain: string) {
  const tree = writeTree({ 'mail.mbox': mbox });
  after(tree.remove);
  const { records } = await collect(parseMbox(join(tree.root, 'mail.mbox'), { selfName: 'Maya Lindqvist' }));
  assert.equal(records.length, 2);
  await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Maya Lindqvist' } });
  for (const r of records) await engine.rememberRecord(tenant, brain, r.body, {});
  await engine.idle();
}

for (const [name, openEngine] of engines) {
  /**
   * A test given an engine of its own holding the two mails in the Brain `brain` (one PGlite is shared
   * by the file's engines), closed after it.
   */
  const withMail = (brain: string, test: (engine: Engine) => Promise<void>) => async () => {
    const engine = await openEngine();
    try {
      await mailBrain(engine, brain);
      await test(engine);
    } finally {
      await engine.close();
    }
  };
  describe(`${name}: a mail's greeting is neither its quote nor a Memory`, () => {
    it(
      'a budgeted Context of a mail with a greeting and a deadline line quotes the deadline',
      withMail('quote', async (engine) => {
        const ctx = await engine.createContext(
          tenant,
          'quote',
          { query: "What's the current Atlas deadline?", budget: { tokens: 700 }, include: ['citations'] },
          { requestId: 'req_test' },
        );
        assert.ok(ctx.status === 'ready', JSON.stringify(ctx));
        assert.match(ctx.text!, /New deadline: 3 February 2027\./u);
        assert.doesNotMatch(ctx.text!, /Dear Atlas team,/u);
        assert.ok(
          ctx.citations.some((c) => c.quote.includes('3 February 2027')),
          JSON.stringify(ctx.citations),
        );
      }),
    );

    it(
      'greetings and sign-offs, German and to a group, and a bare name signing, are no Memories',
      withMail('memories', async (engine) => {
        const statements = (await engine.listMemories(tenant, 'memories', { limit: 100 })).data.map(
          (m) => m.statement,
        );
        for (const courtesy of [
          'Dear Atlas team,',
          'Sehr geehrte Frau Lindqvist,',
          'Ihr Praxisteam Dr. Novak',
          'Mit freundlichen Grüßen',
          'Jonas',
        ])
          assert.ok(!statements.includes(courtesy), `${courtesy} in ${JSON.stringify(statements)}`);
        // What the mails tell is remembered.
        assert.ok(
          statements.some((s) => s.includes('21. Jänner 2027')),
          JSON.stringify(statements),
        );
      }),
    );
  });
}
