import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ContextReady } from '../../engine/contract/index.ts';
import { parseMbox } from '../../server/import/formats/mbox.ts';
import { collect, writeTree } from '../../server/import/test-support.ts';
import { tenant, withBrain } from './local-helpers.ts';

// Maya's booking and its change, her sister's mail, and newsletters: one sender's same ad sent ten
// times, and two senders' ads whose price changes every issue.
const mail = (head: string[], body: string) =>
  `${head.join('\n')}\nContent-Type: text/plain; charset=utf-8\n\n${body}\n`;
const day = (i: number) => new Date(Date.UTC(2026, 8, 1 + 7 * i, 7)).toUTCString().replace('GMT', '+0000');
const own = (id: string, from: string, subject: string, body: string, i: number) =>
  mail(
    [
      'From x Mon Sep 01 07:00:00 2026',
      `From: ${from}`,
      'To: Maya Lindqvist <maya@example.com>',
      `Date: ${day(i)}`,
      `Subject: ${subject}`,
      `Message-ID: <${id}@example.com>`,
    ],
    body,
  );
const ad = (sender: string, id: string, subject: string, body: string, i: number) =>
  mail(
    [
      'From x Mon Sep 01 07:00:00 2026',
      `From: ${sender}`,
      'To: Maya Lindqvist <maya@example.com>',
      `Date: ${day(i)}`,
      `Subject: ${subject}`,
      `Message-ID: <${id}-${i}@list.example>`,
      'List-Unsubscribe: <mailto:unsubscribe@list.example>',
      'Precedence: bulk',
    ],
    body,
  );
const booking = own(
  'booking',
  'Austrian Airlines <booking@austrian.example>',
  'Your booking to Lisbon',
  'Dear Ms Lindqvist,\n\nyour flight OS 371 from Vienna to Lisbon departs on Saturday 19 December at 10:05.\n\nAustrian Airlines',
  12,
);
const sister = own(
  'sister',
  'Lena Lindqvist <lena@example.com>',
  'Christmas',
  'So you are in Lisbon for Christmas? Mamma is a bit sad but ok.\n\nLena',
  13,
);
const smileCare = 'SmileCare Tips <news@smilecare.example>';
const sameAd = (i: number) =>
  ad(
    smileCare,
    'smile',
    'Your flight to a brighter smile',
    'Flying to Lisbon this winter? Book your dentist appointment before your flight: slots on 14 January!',
    i,
  );
const skyScout = 'SkyScout Deals <deals@skyscout.travel>';
const flyDeals = 'Fly Deals Weekly <news@flydeals.example>';
const priced = (sender: string, id: string, i: number) =>
  ad(
    sender,
    id,
    `Flash sale: Lisbon from €${39 + i}!`,
    `Fly Vienna to Lisbon from just €${39 + i} one way. Book your flight to Lisbon now before it's gone!`,
    i,
  );

async function brainOf(mails: string[]) {
  const tree = writeTree({ 'inbox.mbox': mails.join('\n') });
  after(tree.remove);
  const { records, skips } = await collect(
    parseMbox(join(tree.root, 'inbox.mbox'), { selfName: 'Maya Lindqvist' }),
  );
  assert.deepEqual(skips, []);
  const { engine } = await withBrain();
  await engine.createBrain(tenant, { id: 'maya', self: { type: 'person', name: 'Maya Lindqvist' } });
  const ids = new Map<string, string>();
  for (const r of records) {
    const { record } = await engine.rememberRecord(tenant, 'maya', r.body, {});
    ids.set(r.body.source!.external_id!.slice('mbox:<'.length, -1), record.id);
  }
  await engine.idle();
  const ask = async (query: string, mode: 'fast' | 'thorough' = 'fast') => {
    const ctx = await engine.createContext(
      tenant,
      'maya',
      { query, mode, budget: { tokens: 4000 }, include: ['citations', 'explain'] },
      { requestId: 'req_test' },
    );
    assert.ok(ctx.status === 'ready', JSON.stringify(ctx));
    const trace = await engine.getTrace(tenant, 'maya', ctx.id);
    return { ctx, trace, cited: ctx.citations.map((c) => c.record_id) };
  };
  return { ids, ask };
}

const droppedOf = (ctx: ContextReady) =>
  new Map(
    ((ctx.explain?.['dropped'] ?? []) as { record_id: string; reason: string }[]).map((d) => [
      d.record_id,
      d.reason,
    ]),
  );

test('context: ten copies of one ad take one block, the newest, and the rest name it as what they repeat', async () => {
  const ads = Array.from({ length: 10 }, (_, i) => sameAd(i));
  const { ids, ask } = await brainOf([booking, sister, ...ads]);
  const copies = Array.from({ length: 10 }, (_, i) => ids.get(`smile-${i}@list.example`)!);
  const newest = copies.at(-1)!;
  // Named, the sender's mail is what is asked about, and still not quoted ten times over.
  for (const query of ['When is my flight to Lisbon?', 'What did SmileCare send about my flight?']) {
    for (const mode of ['fast', 'thorough'] as const) {
      const { ctx, trace, cited } = await ask(query, mode);
      assert.deepEqual(
        cited.filter((id) => copies.includes(id)),
        [newest],
        `${mode} ${query}: ${ctx.text}`,
      );
      if (query.startsWith('When')) assert.equal(cited[0], ids.get('booking@example.com'), ctx.text ?? '');
      const dropped = droppedOf(ctx);
      const inTrace = new Map((trace.dropped ?? []).map((d) => [d.record_id, d.reason]));
      for (const copy of copies.slice(0, -1)) {
        assert.match(dropped.get(copy) ?? '', new RegExp(`^repeated: the same words as ${newest}`, 'u'));
        assert.equal(inTrace.get(copy), dropped.get(copy));
      }
    }
  }
});

test('context: bulk mail takes at most two blocks a sender, and a small share, when mail not sent to a list answers', async () => {
  const ads = Array.from({ length: 8 }, (_, i) => [
    priced(skyScout, 'sky', i),
    priced(flyDeals, 'fly', i),
  ]).flat();
  const { ids, ask } = await brainOf([booking, sister, ...ads]);
  const bySender = (cited: string[], id: string) =>
    cited.filter((r) => [...ids].some(([k, v]) => v === r && k.startsWith(`${id}-`)));
  for (const mode of ['fast', 'thorough'] as const) {
    const { ctx, cited } = await ask('When is my flight to Lisbon?', mode);
    const sky = bySender(cited, 'sky');
    const fly = bySender(cited, 'fly');
    const others = cited.length - sky.length - fly.length;
    assert.ok(cited.includes(ids.get('booking@example.com')!), ctx.text ?? '');
    assert.ok(sky.length <= 2 && fly.length <= 2, `${mode}: ${sky.length} and ${fly.length}: ${ctx.text}`);
    // One bulk block for every four that are not: two mails of Maya's here, so one.
    assert.ok(sky.length + fly.length >= 1, ctx.text ?? '');
    assert.ok(sky.length + fly.length <= Math.ceil(others / 4), `${mode}: ${others} others: ${ctx.text}`);
    const reasons = [...droppedOf(ctx).values()];
    assert.ok(reasons.filter((r) => r.startsWith('bulk mail: ')).length >= 16 - 2, JSON.stringify(reasons));
  }
});

test('context: every bulk mail stays when the question names its sender, asks about newsletters, or nothing else answers', async () => {
  const ads = Array.from({ length: 6 }, (_, i) => [
    priced(skyScout, 'sky', i),
    priced(flyDeals, 'fly', i),
  ]).flat();
  const { ids, ask } = await brainOf([booking, sister, ...ads]);
  const all = (id: string) => Array.from({ length: 6 }, (_, i) => ids.get(`${id}-${i}@list.example`)!);
  const named = await ask('What did SkyScout offer for Lisbon?');
  for (const r of all('sky')) assert.ok(named.cited.includes(r), named.ctx.text ?? '');
  const newsletters = await ask('Which newsletters had flights to Lisbon?');
  for (const r of [...all('sky'), ...all('fly')])
    assert.ok(newsletters.cited.includes(r), newsletters.ctx.text ?? '');
  // Only the ads say "one way" and "sale".
  const alone = await ask('Is there a one way flash sale?');
  for (const r of [...all('sky'), ...all('fly')]) assert.ok(alone.cited.includes(r), alone.ctx.text ?? '');
});

test('context: a chat message said word for word again is one block, the newest; another speaker’s same words are not a repeat', async () => {
  const { engine } = await withBrain();
  const said = async (speaker: string, text: string, day: number) =>
    (
      await engine.rememberRecord(
        tenant,
        'b',
        {
          content: { kind: 'message', speaker, text, thread: `chat-${day}` },
          occurred_at: new Date(Date.UTC(2026, 4, day, 9)).toISOString(),
        },
        {},
      )
    ).record.id;
  const first = await said('Ana', 'The gym on Rua Augusta opens at 6 on Saturdays.', 3);
  const again = await said('Ana', 'The gym on Rua Augusta opens at 6 on Saturdays.', 9);
  const marko = await said('Marko', 'The gym on Rua Augusta opens at 6 on Saturdays.', 5);
  await engine.idle();
  const ctx = await engine.createContext(
    tenant,
    'b',
    { query: 'When does the gym open on Saturdays?', include: ['citations', 'explain'] },
    { requestId: 'req_test' },
  );
  assert.ok(ctx.status === 'ready');
  const cited = ctx.citations.map((c) => c.record_id);
  assert.ok(cited.includes(again) && cited.includes(marko), ctx.text ?? '');
  assert.ok(!cited.includes(first), ctx.text ?? '');
  assert.match(droppedOf(ctx).get(first) ?? '', new RegExp(`^repeated: the same words as ${again}, `, 'u'));
});

test("one sender's same words under two subjects are two blocks: the one asked about is quoted", async () => {
  const body = 'Confirmed: Thursday 15 October, 10:00, room 4.\n\nPetra';
  const { ids, ask } = await brainOf([
    own('atlas', 'Petra Novak <petra@example.com>', 'Atlas design review', body, 1),
    own('borealis', 'Petra Novak <petra@example.com>', 'Borealis design review', body, 2),
  ]);
  for (const mode of ['fast', 'thorough'] as const) {
    const { ctx, cited } = await ask('When is the Atlas design review?', mode);
    assert.ok(cited.includes(ids.get('atlas@example.com')!), `${mode}: ${JSON.stringify(droppedOf(ctx))}`);
  }
});
