import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseMbox } from '../../server/import/formats/mbox.ts';
import { collect, writeTree } from '../../server/import/test-support.ts';
import { tenant, withBrain } from './local-helpers.ts';

// A landlord's thread, a colleague's decision, and two mails sent to a list of subscribers, with the
// headers bulk senders write (Gmail and Yahoo refuse bulk mail without List-Unsubscribe since 2024).
const mail = (head: string[], body: string) =>
  `${head.join('\n')}\nContent-Type: text/plain; charset=utf-8\n\n${body}\n`;
const mbox = [
  mail(
    [
      'From ante.horvat@gmail.com Thu Nov 26 08:02:00 2026',
      'From: Ante Horvat <ante.horvat@gmail.com>',
      'To: Ivo Marić <ivo.maric@gmail.com>',
      'Date: Thu, 26 Nov 2026 09:02:00 +0100',
      'Subject: Stan Ilica 45 - rent from February',
      'Message-ID: <rent-1@use5.example>',
    ],
    'Dear Ivo,\n\nfrom 1 February 2027 I have to raise the rent from 650 EUR to 720 EUR per month.\n\nBest regards,\nAnte',
  ),
  mail(
    [
      'From ante.horvat@gmail.com Mon Nov 30 17:45:00 2026',
      'From: Ante Horvat <ante.horvat@gmail.com>',
      'To: Ivo Marić <ivo.maric@gmail.com>',
      'Date: Mon, 30 Nov 2026 18:45:00 +0100',
      'Subject: Re: Stan Ilica 45 - rent from February',
      'Message-ID: <rent-3@use5.example>',
      'References: <rent-1@use5.example>',
    ],
    'Hi Ivo,\n\nfair enough. We agree on 700 EUR from 1 February 2027.\n\nAnte',
  ),
  mail(
    [
      'From petra.juric@sprout.hr Wed Nov 25 15:20:00 2026',
      'From: Petra Jurić <petra.juric@sprout.hr>',
      'To: Ivo Marić <ivo.maric@gmail.com>',
      'Date: Wed, 25 Nov 2026 16:20:00 +0100',
      'Subject: Garden App backend',
      'Message-ID: <garden-1@use5.example>',
    ],
    'Hi Ivo,\n\nafter the call we decided the Garden App database will be PostgreSQL.\n\nPetra',
  ),
  mail(
    [
      'From news@flydeals.example Wed Dec 02 06:00:00 2026',
      'From: Fly Deals Weekly <news@flydeals.example>',
      'To: Ivo Marić <ivo.maric@gmail.com>',
      'Date: Wed, 2 Dec 2026 07:00:00 +0100',
      'Subject: This week: Lisbon from 49 EUR, Rome from 39 EUR',
      'Message-ID: <m7@flydeals.example>',
      'List-Id: Fly Deals Weekly <weekly.flydeals.example>',
      'List-Unsubscribe: <https://flydeals.example/u?id=8812>, <mailto:unsub-8812@flydeals.example>',
      'Precedence: bulk',
    ],
    'FLY DEALS WEEKLY\n\nLisbon from 49 EUR! Flights to Lisbon in January from Zagreb from just 49 EUR.\n\n' +
      'Tip of the week: rent a flat instead of a hotel and save 30 percent. New deals every week.\n\n' +
      'Unsubscribe: https://flydeals.example/u',
  ),
  mail(
    [
      'From noreply@medium.com Thu Dec 03 07:00:00 2026',
      'From: Medium Daily Digest <noreply@medium.com>',
      'To: Ivo Marić <ivo.maric@gmail.com>',
      'Date: Thu, 3 Dec 2026 08:00:00 +0100',
      'Subject: Why every startup should use PostgreSQL',
      'Message-ID: <d17@medium.com>',
      'List-Unsubscribe: <https://medium.com/unsub/ivo>',
    ],
    "Today's highlights\n\nWhy every startup should use PostgreSQL for its database - 8 min read\n" +
      'The database decision that killed our company - 12 min read',
  ),
].join('\n');

async function importedBrain() {
  const tree = writeTree({ 'inbox.mbox': mbox });
  after(tree.remove);
  const { records, skips } = await collect(
    parseMbox(join(tree.root, 'inbox.mbox'), { selfName: 'Ivo Marić' }),
  );
  assert.deepEqual(skips, []);
  const { engine } = await withBrain();
  await engine.createBrain(tenant, { id: 'ivo', self: { type: 'person', name: 'Ivo Marić' } });
  const ids = new Map<string, string>();
  for (const r of records) {
    const { record } = await engine.rememberRecord(tenant, 'ivo', r.body, {});
    ids.set(r.body.source!.external_id!, record.id);
  }
  await engine.idle();
  const ranked = async (query: string, mode: 'fast' | 'thorough' = 'fast') => {
    const ctx = await engine.createContext(
      tenant,
      'ivo',
      { query, mode, budget: { tokens: 4000 }, include: ['citations'] },
      { requestId: 'req_test' },
    );
    assert.ok(ctx.status === 'ready', JSON.stringify(ctx));
    return [...new Set(ctx.citations.map((c) => c.record_id))];
  };
  return { engine, records, ids, ranked };
}

const id = (ids: Map<string, string>, messageId: string) => ids.get(`mbox:<${messageId}>`)!;

test('mail: a mail sent to a list is marked bulk in its header lines; a person’s mail is not', async () => {
  const tree = writeTree({ 'inbox.mbox': mbox });
  after(tree.remove);
  const { records } = await collect(parseMbox(join(tree.root, 'inbox.mbox'), { selfName: 'Ivo Marić' }));
  const head = (messageId: string) => {
    const r = records.find((x) => x.body.source?.external_id === `mbox:<${messageId}>`)!;
    const c = r.body.content;
    assert.ok(typeof c !== 'string' && c.kind === 'message');
    return c.text.split('\n\n')[0]!;
  };
  assert.match(head('m7@flydeals.example'), /^Precedence: bulk$/mu);
  assert.match(head('d17@medium.com'), /^Precedence: bulk$/mu);
  assert.doesNotMatch(head('rent-3@use5.example'), /Precedence/u);
  // The unsubscribe address (a token of the person's subscription) is not kept.
  assert.ok(records.every((r) => !JSON.stringify(r.body).includes('unsub-8812')));
});

test('retrieval: a newsletter that shares a word of the question ranks behind the person’s mail', async () => {
  const { ids, ranked } = await importedBrain();
  for (const mode of ['fast', 'thorough'] as const) {
    const rent = await ranked("What's the new rent?", mode);
    const deals = rent.indexOf(id(ids, 'm7@flydeals.example'));
    for (const own of ['rent-1@use5.example', 'rent-3@use5.example']) {
      const at = rent.indexOf(id(ids, own));
      assert.ok(
        at !== -1 && (deals === -1 || at < deals),
        `${mode}: ${own} at ${at}, the newsletter at ${deals}`,
      );
    }
    const db = await ranked('What did we decide about the database?', mode);
    const digest = db.indexOf(id(ids, 'd17@medium.com'));
    const petra = db.indexOf(id(ids, 'garden-1@use5.example'));
    assert.ok(
      petra !== -1 && (digest === -1 || petra < digest),
      `${mode}: Petra at ${petra}, the digest at ${digest}`,
    );
  }
});

test('retrieval: a newsletter asked about by its sender’s name keeps its place', async () => {
  const { ids, ranked } = await importedBrain();
  const digest = await ranked('What did the Medium digest say about PostgreSQL?');
  assert.equal(digest[0], id(ids, 'd17@medium.com'));
  // The fusion puts the landlord's first mail first by its word "rent"; named, the newsletter is not
  // sent behind his reply too.
  const deals = await ranked('What tip about rent did Fly Deals give?');
  const at = deals.indexOf(id(ids, 'm7@flydeals.example'));
  assert.ok(at === 0 || at === 1, JSON.stringify(deals));
});

test('retrieval: a newsletter imported before the mark ranks behind once the mailbox is imported again', async () => {
  const tree = writeTree({ 'inbox.mbox': mbox });
  after(tree.remove);
  const { records } = await collect(parseMbox(join(tree.root, 'inbox.mbox'), { selfName: 'Ivo Marić' }));
  const { engine } = await withBrain();
  await engine.createBrain(tenant, { id: 'ivo', self: { type: 'person', name: 'Ivo Marić' } });
  const unmarked = (body: (typeof records)[number]['body']) => {
    const c = body.content;
    assert.ok(typeof c !== 'string' && c.kind === 'message');
    return { ...body, content: { ...c, text: c.text.replace('\nPrecedence: bulk', '') } };
  };
  // As an earlier version imported the mailbox: no mark.
  for (const r of records) await engine.rememberRecord(tenant, 'ivo', unmarked(r.body), {});
  await engine.idle();
  const ask = async () => {
    const ctx = await engine.createContext(
      tenant,
      'ivo',
      { query: "What's the new rent?", budget: { tokens: 4000 }, include: ['citations'] },
      { requestId: 'req_test' },
    );
    assert.ok(ctx.status === 'ready');
    const cited = [...new Set(ctx.citations.map((c) => c.record_id))];
    // Each mail by its Message-ID: its two revisions are one mail.
    return Promise.all(cited.map(async (r) => (await engine.getRecord(tenant, 'ivo', r)).source.external_id));
  };
  const deals = 'mbox:<m7@flydeals.example>';
  const before = await ask();
  assert.equal(before[1], deals, JSON.stringify(before));
  // Imported again: each newsletter is a new revision of its mail, with the mark.
  for (const r of records) await engine.rememberRecord(tenant, 'ivo', r.body, {});
  await engine.idle();
  const mails = await ask();
  assert.equal(mails.at(-1), deals, JSON.stringify(mails));
});

test('derivation: a newsletter’s header lines make no Memories, and what it says is its sender’s', async () => {
  const { engine } = await importedBrain();
  const memories = (await engine.listMemories(tenant, 'ivo', { limit: 200 })).data;
  assert.deepEqual(
    memories.filter((m) => /^(?:Subject|From|To|Precedence):/u.test(m.statement)).map((m) => m.statement),
    [],
  );
  const tip = memories.find((m) => m.statement.includes('rent a flat'));
  assert.equal(tip?.owner.entity, 'Fly Deals Weekly', JSON.stringify(tip));
});

test('context: a newsletter’s block header says it is bulk mail; a person’s mail’s does not', async () => {
  const { engine } = await importedBrain();
  const ctx = await engine.createContext(
    tenant,
    'ivo',
    { query: 'What did the Medium digest say about PostgreSQL?', budget: { tokens: 4000 } },
    { requestId: 'req_test' },
  );
  assert.ok(ctx.status === 'ready' && ctx.text !== null);
  const headers = ctx.text.split('\n').filter((l) => /^#mnemo-\d+ \[\d+\]/u.test(l));
  const digest = headers.find((l) => l.includes('speaker: "Medium Daily Digest"'));
  const petra = headers.find((l) => l.includes('speaker: "Petra Jurić"'));
  assert.match(digest ?? '', /subject: "Why every startup should use PostgreSQL" · bulk mail/u, ctx.text);
  assert.ok(petra !== undefined, ctx.text);
  assert.doesNotMatch(petra, /bulk/u);
  // Its quote leaves the line out with the other header lines.
  assert.ok(!ctx.text.includes('Precedence: bulk'), ctx.text);
});
