import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { humanizePredicate } from '../../engine/contract/fact-line.ts';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import { resolveOwner } from '../../engine/core/derive/resolve-owner.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import {
  anaCurrent,
  anaSaying,
  convergeAna,
  editStore,
  hubAndTwoDevices,
  pairAnaOnBoth,
  writeTo,
  type HubAndDevices,
  type Node,
} from './sync-helpers.ts';

const rules = createRuleDeriver();

/**
 * Rules of another version, as a side whose deriver was upgraded before the others' (or a hub of
 * another engine) derives: the same Records, the same slots, other words. A fact's Memory reads
 * "About Ana Lima — lives in — Porto" (not only its marks differ: those a statement's key leaves out);
 * a message's is its speaker's "… said: …".
 */
const otherRules: Deriver = {
  name: 'rules-other-words',
  derive(record, ctx) {
    const c = record.content;
    if (c.kind === 'fact')
      return rules.derive(record, ctx).map((claim) => ({
        ...claim,
        statement: `About ${c.subject} — ${humanizePredicate(c.predicate)} — ${String(c.value)}`,
      }));
    if (c.kind === 'message') {
      const owner = resolveOwner(c.speaker, ctx.self);
      const subject = owner.entity ?? c.speaker ?? 'unknown speaker';
      return [
        { statement: `${subject} said: ${record.text}`, subject, predicate: null, owner, quote: record.text },
      ];
    }
    return rules.derive(record, ctx);
  },
};

// The hub on PostgreSQL (PGlite), as a hosted Mnemo runs.
const database = await pgliteDatabases({ migrated: true });

/** What a correction did on node N. */
const outcome = async (n: Node, id: string) => (await n.client.getRecord('ana', id)).correction_outcome;

/**
 * The hub (PostgreSQL, its database kept across a restart) and the device b on other rules, until each
 * is upgraded to the engine's; the device a on the engine's rules; Ana paired on both.
 */
async function onOtherRulesUntilUpgraded(): Promise<HubAndDevices> {
  const kept = { ...(await database()), close: async () => {} };
  const nodes = await hubAndTwoDevices({
    h: { deriver: otherRules, openDatabase: async (o) => postgresStorageOver(kept, o) },
    b: { deriver: otherRules },
  });
  await pairAnaOnBoth(nodes);
  return nodes;
}

/** Ana's "I keep two cats." written on a and synced everywhere; its Memory on a. */
async function twoCatsEverywhere(nodes: HubAndDevices) {
  await writeTo(nodes.a, 'ana', {
    content: { kind: 'message', speaker: 'Ana Lima', text: 'I keep two cats.' },
  });
  await nodes.a.server.engine.idle();
  await convergeAna(nodes);
  return (await anaSaying(nodes.a, 'cats'))[0]!;
}

describe('a correction that reaches a side deriving its Records in other words', () => {
  let h: Node;
  let a: Node;
  let b: Node;
  let nodes: HubAndDevices;
  const write = (n: Node, body: RecordCreate) => writeTo(n, 'ana', body);
  const converge = () => convergeAna(nodes);
  const saying = anaSaying;
  const current = anaCurrent;

  before(async () => {
    // The device a on the engine's rules; the hub (PostgreSQL) and the device b on other rules.
    nodes = await hubAndTwoDevices({
      h: { deriver: otherRules, openDatabase: async (kept) => postgresStorageOver(await database(), kept) },
      b: { deriver: otherRules },
    });
    ({ h, a, b } = nodes);
    await pairAnaOnBoth(nodes);
  });
  after(() => nodes.stop());

  it('corrects there the Memory of its Records holding the same slot, and says so', async () => {
    await write(a, { content: { kind: 'fact', subject: 'Ana Lima', predicate: 'lives in', value: 'Porto' } });
    await a.server.engine.idle();
    await converge();
    assert.deepEqual(await current(a, 'lives in'), ['Ana Lima lives in: Porto']);
    for (const n of [h, b])
      assert.deepEqual(await current(n, 'lives in'), ['About Ana Lima — lives in — Porto'], n.name);

    const [porto] = await saying(a, 'lives in');
    const fix = await write(a, {
      content: { kind: 'correction', corrects: porto!.id, statement: 'Ana Lima lives in Lisbon' },
    });
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'lives in'), ['Ana Lima lives in Lisbon'], n.name);
    for (const n of [h, b]) {
      const o = await outcome(n, fix.id);
      assert.equal(o?.state, 'applied_by_fallback', n.name);
      assert.equal(o?.matched_by, 'slot', n.name);
      const [lisbon] = await saying(n, 'lives in');
      assert.equal(o?.memory_id, lisbon!.id, `${n.name}: names the Memory it made there`);
    }
    assert.equal(await outcome(a, fix.id), undefined, 'written here, it was applied as it was written');
  });

  it('written on a side of other words, corrects the Memory of the same slot where it was said otherwise', async () => {
    await write(b, {
      content: { kind: 'fact', subject: 'Ana Lima', predicate: 'works at', value: 'the harbour' },
    });
    await b.server.engine.idle();
    await converge();
    const [harbour] = await saying(b, 'works at');
    const fix = await write(b, {
      content: { kind: 'correction', corrects: harbour!.id, statement: 'Ana Lima works at the museum' },
    });
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'works at'), ['Ana Lima works at the museum'], n.name);
    assert.equal((await outcome(h, fix.id))?.matched_by, 'statement', 'the hub words it as b does');
    assert.equal((await outcome(a, fix.id))?.matched_by, 'slot');
  });

  it('stands as a Memory of its own where nothing of its Records matches, rather than doing nothing', async () => {
    const cats = await twoCatsEverywhere(nodes);
    const fix = await write(a, {
      content: { kind: 'correction', corrects: cats.id, statement: 'I keep three cats.' },
    });
    await converge();
    assert.deepEqual(await current(a, 'cats'), ['I keep three cats.']);
    for (const n of [h, b]) {
      assert.deepEqual(
        await current(n, 'cats'),
        ['Ana Lima said: I keep two cats.', 'I keep three cats.'].sort(),
        n.name,
      );
      const o = await outcome(n, fix.id);
      assert.equal(o?.state, 'applied_by_fallback', n.name);
      assert.equal(o?.matched_by, 'stated', n.name);
      const stated = await n.client.getMemory('ana', o!.memory_id!);
      assert.ok(
        stated.evidence.some((e) => e.record_id === fix.id),
        `${n.name}: the Memory cites the correction`,
      );
    }
    // A device's sync status counts what the corrections from other sides did there.
    assert.deepEqual((await b.client.getSync('ana')).corrections, {
      applied: 0,
      applied_by_fallback: 2,
      not_applied: 0,
    });
    assert.deepEqual((await a.client.getSync('ana')).corrections, {
      applied: 0,
      applied_by_fallback: 1,
      not_applied: 0,
    });
    // Forgotten where it was written, it is undone everywhere: its Memory of its own goes with it.
    await a.client.forgetRecord('ana', fix.id);
    await converge();
    for (const n of [h, b])
      assert.deepEqual(await current(n, 'cats'), ['Ana Lima said: I keep two cats.'], n.name);
    assert.deepEqual(await current(a, 'cats'), ['I keep two cats.']);
  });
});

describe('a correction stated where nothing matched, once that side derives its Records again', () => {
  let nodes: HubAndDevices;
  let h: Node;
  let a: Node;
  let b: Node;

  before(async () => {
    nodes = await onOtherRulesUntilUpgraded();
    ({ h, a, b } = nodes);
  });
  after(() => nodes.stop());

  it('corrects the Memory that now says what it corrected, in place of its Memory of its own', async () => {
    const cats = await twoCatsEverywhere(nodes);
    const fix = await writeTo(a, 'ana', {
      content: { kind: 'correction', corrects: cats.id, statement: 'I keep three cats.' },
    });
    await convergeAna(nodes);
    assert.deepEqual(await anaCurrent(b, 'cats'), ['Ana Lima said: I keep two cats.', 'I keep three cats.']);
    const stated = (await outcome(b, fix.id))!.memory_id!;

    // b now derives its Records as a does: the old Memory says what the correction corrected.
    await b.restart({ deriver: undefined });
    await b.server.engine.idle();
    assert.deepEqual(await anaCurrent(b, 'cats'), ['I keep three cats.'], 'as on a');
    const o = await outcome(b, fix.id);
    assert.equal(o?.state, 'applied', 'found by its statement now');
    assert.equal(o?.matched_by, 'statement');
    const [three] = await anaSaying(b, 'cats');
    assert.equal(o?.memory_id, three!.id, 'names the version it made');
    assert.notEqual(three!.id, stated, 'not the Memory of its own, which is gone');
    const detail = await b.client.getMemory('ana', three!.id);
    assert.ok(
      detail.evidence.some((e) => e.record_id === fix.id),
      'it cites the correction',
    );
    // Its history is the old Memory's: the version it corrected, then the correction's.
    assert.deepEqual(
      detail.revisions.map((v) => [v.statement, v.cause]),
      [
        ['I keep two cats.', 'derived'],
        ['I keep three cats.', 'correction'],
      ],
    );
    await assert.rejects(b.client.getMemory('ana', stated), { status: 404 });

    // The hub, on PostgreSQL, as well.
    await h.restart({ deriver: undefined });
    await h.server.engine.idle();
    assert.deepEqual(await anaCurrent(h, 'cats'), ['I keep three cats.'], 'on the hub');
    assert.equal((await outcome(h, fix.id))?.matched_by, 'statement', 'on the hub');

    // Forgotten where it was written, it is undone here too, as any correction applied here is.
    await a.client.forgetRecord('ana', fix.id);
    await convergeAna(nodes);
    assert.deepEqual(await anaCurrent(b, 'cats'), ['I keep two cats.']);
  });
});

describe('a correction stated by a Memory that said it already, once that side derives its Records again', () => {
  let nodes: HubAndDevices;
  let a: Node;
  let b: Node;
  const evidence = async (n: Node, id: string) =>
    (await n.client.getMemory('ana', id)).evidence.map((e) => e.record_id).sort();

  // Other rules for the message corrected alone: b says what the correction states in the same words.
  const twoOtherwise: Deriver = {
    name: 'rules-two-otherwise',
    derive: (record, ctx) => (record.text.includes('two') ? otherRules : rules).derive(record, ctx),
  };

  before(async () => {
    nodes = await hubAndTwoDevices({ h: { deriver: twoOtherwise }, b: { deriver: twoOtherwise } });
    ({ a, b } = nodes);
    await pairAnaOnBoth(nodes);
  });
  after(() => nodes.stop());

  it('no longer cites the correction, which corrects the Memory it names now', async () => {
    const note = await writeTo(b, 'ana', {
      content: { kind: 'message', speaker: 'Ana Lima', text: 'I keep three cats.' },
    });
    await writeTo(a, 'ana', { content: { kind: 'message', speaker: 'Ana Lima', text: 'I keep two cats.' } });
    await a.server.engine.idle();
    await b.server.engine.idle();
    await convergeAna(nodes);
    const [two] = await anaSaying(a, 'two cats');
    const fix = await writeTo(a, 'ana', {
      content: { kind: 'correction', corrects: two!.id, statement: 'I keep three cats.' },
    });
    await convergeAna(nodes);
    const o = await outcome(b, fix.id);
    assert.equal(o?.matched_by, 'stated');
    assert.match(o!.reason, /says its statement already/);
    const said = o!.memory_id!;
    assert.deepEqual(await evidence(b, said), [fix.id, note.id].sort());

    await b.restart({ deriver: undefined });
    await b.server.engine.idle();
    assert.deepEqual(await anaCurrent(b, 'cats'), await anaCurrent(a, 'cats'), 'as on a');
    assert.deepEqual(await anaCurrent(b, 'cats'), ['I keep three cats.', 'I keep three cats.']);
    assert.deepEqual(await evidence(b, said), [note.id], 'it rests on its own Record again');
    const again = await outcome(b, fix.id);
    assert.equal(again?.matched_by, 'statement');
    assert.notEqual(again?.memory_id, said);
    assert.deepEqual(await evidence(b, again!.memory_id!), [fix.id]);
  });
});

describe('a withdrawal that withdrew nothing, once that side derives its Records again', () => {
  let nodes: HubAndDevices;
  let h: Node;
  let a: Node;
  let b: Node;

  before(async () => {
    nodes = await onOtherRulesUntilUpgraded();
    ({ h, a, b } = nodes);
  });
  after(() => nodes.stop());

  it('withdraws the Memory that now says what it withdrew, as where it was written', async () => {
    const cats = await twoCatsEverywhere(nodes);
    const fix = await writeTo(a, 'ana', { content: { kind: 'correction', corrects: cats.id } });
    await convergeAna(nodes);
    assert.deepEqual(await anaCurrent(a, 'cats'), []);
    for (const n of [h, b]) {
      assert.deepEqual(await anaCurrent(n, 'cats'), ['Ana Lima said: I keep two cats.'], n.name);
      const o = await outcome(n, fix.id);
      assert.equal(o?.state, 'not_applied', n.name);
      assert.match(o!.reason, /nothing was withdrawn/, n.name);
    }

    // b now derives its Records as a does: its Memory says what the withdrawal withdrew.
    await b.restart({ deriver: undefined });
    await b.server.engine.idle();
    assert.deepEqual(await anaCurrent(b, 'cats'), [], 'as on a');
    const o = await outcome(b, fix.id);
    assert.equal(o?.state, 'applied', 'found by its statement now');
    assert.equal(o?.matched_by, 'statement');
    assert.match(o!.reason, /withdrawn, once its Records were derived again here/);
    const withdrawn = await b.client.getMemory('ana', o!.memory_id!);
    assert.equal(withdrawn.statement, 'I keep two cats.', 'names the Memory it withdrew');
    assert.deepEqual((await b.client.getSync('ana')).corrections, {
      applied: 1,
      applied_by_fallback: 0,
      not_applied: 0,
    });

    // The hub, on PostgreSQL, as well.
    await h.restart({ deriver: undefined });
    await h.server.engine.idle();
    assert.deepEqual(await anaCurrent(h, 'cats'), [], 'on the hub');
    assert.equal((await outcome(h, fix.id))?.matched_by, 'statement', 'on the hub');

    // Forgotten where it was written, it is undone here too, as any withdrawal applied here is.
    await a.client.forgetRecord('ana', fix.id);
    await convergeAna(nodes);
    for (const n of [a, h, b]) assert.deepEqual(await anaCurrent(n, 'cats'), ['I keep two cats.'], n.name);
  });
});

describe('a withdrawal left unapplied by a version before unmatched ones were marked', () => {
  let nodes: HubAndDevices;
  let a: Node;
  let b: Node;

  before(async () => {
    nodes = await onOtherRulesUntilUpgraded();
    ({ a, b } = nodes);
  });
  after(() => nodes.stop());

  it('withdraws the Memory that says now what it withdrew, once the store is migrated', async () => {
    const cats = await twoCatsEverywhere(nodes);
    const fix = await writeTo(a, 'ana', { content: { kind: 'correction', corrects: cats.id } });
    await convergeAna(nodes);
    assert.equal((await outcome(b, fix.id))?.state, 'not_applied');
    // Unmarked, as a version before the mark left it; b then upgraded, and derives as a does: its
    // Memory says what was withdrawn, and the upgrade did not look at the withdrawal.
    await b.stop();
    editStore(nodes.root, 'b', (db) => db.prepare('UPDATE correction_outcomes SET unmatched = 0').run());
    await b.restart({ deriver: undefined });
    await b.server.engine.idle();
    assert.deepEqual(await anaCurrent(b, 'cats'), ['I keep two cats.'], 'left as it was');

    // The store is migrated (as from a version before this one): the withdrawal is matched again.
    await b.stop();
    editStore(nodes.root, 'b', (db) => db.pragma('user_version = 30'));
    await b.restart();
    await b.server.engine.idle();
    assert.deepEqual(await anaCurrent(b, 'cats'), [], 'as on a');
    const o = await outcome(b, fix.id);
    assert.equal(o?.state, 'applied');
    assert.equal(o?.matched_by, 'statement');
  });
});
