import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import type { Context, ContextReady, RecordCreate, Trace } from '../contract/index.ts';
import type { ContextEvent, Engine, Tenant } from '../types.ts';
import type { MnemoError } from '../errors/mnemo-error.ts';
import { createHashModel } from '../embed/hash-model.ts';
import { createLocalEngine, type LocalEngineOptions } from '../local/index.ts';
import { scopeToken } from '../adapters/sqlite/turn-table.ts';
import { ftsRankingSql } from '../adapters/sqlite/turn-table.ts';
import { quantize } from '../adapters/sqlite/vector-index.ts';
import { testStoreKey } from '../adapters/sqlite/testing.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };
const opts = { requestId: 'req_test' };

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-retrieval-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function engineWith(
  extra: Partial<LocalEngineOptions> = {},
  dir = tempDir(),
): Promise<{ engine: Engine; dir: string }> {
  const engine = await createLocalEngine({
    dataDir: dir,
    // A key as Mnemo generates them, taken as is: a passphrase costs an Argon2id derivation per
    // connection, ~0.25 CPU s an engine, and this file opens dozens.
    dbKey: testStoreKey,
    embedder: { provider: 'hash', dataDir: dir },
    ...extra,
  });
  after(() => engine.close());
  return { engine, dir };
}

async function write(engine: Engine, brain: string, items: RecordCreate[]): Promise<string[]> {
  const ids: string[] = [];
  for (const body of items) ids.push((await engine.rememberRecord(tenant, brain, body, {})).record.id);
  await engine.idle();
  return ids;
}

const msg = (text: string, speaker: string, at: string, thread = 't1'): RecordCreate => ({
  content: { kind: 'message', text, speaker, thread },
  occurred_at: at,
});

/** One lane of a Trace (it must be there). */
function laneOf(trace: Trace, name: string): Trace['lanes'][number] {
  const found = trace.lanes.find((l) => l.name === name);
  assert.ok(found, `the Trace has a ${name} lane`);
  return found;
}

async function ask(
  engine: Engine,
  brain: string,
  query: string,
  more: Record<string, unknown> = {},
  onEvent?: (e: ContextEvent) => void,
) {
  const ctx = await engine.createContext(
    tenant,
    brain,
    { query, budget: { tokens: 8000 }, ...more },
    { ...opts, onEvent },
  );
  assert.equal(ctx.status, 'ready');
  return ctx as ContextReady;
}

describe('retrieval lanes (local engine, hash embedder)', () => {
  it('finds a reply through the message it answers (thread context), not across threads', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [, reply, , other] = await write(engine, 'b', [
      msg('Where did you spend the summer holiday?', 'Bob', '2023-05-01T10:00:00Z'),
      msg('Lisbon, with my sister. It was lovely.', 'Ana', '2023-05-01T10:01:00Z'),
      msg('Where did you spend the summer holiday?', 'Bob', '2023-06-01T10:00:00Z', 't2'),
      msg('Nowhere special.', 'Ana', '2023-06-01T10:01:00Z', 't3'),
    ]);
    const ctx = await ask(engine, 'b', 'summer holiday');
    const cited = ctx.citations.map((c) => c.record_id);
    assert.ok(cited.includes(reply!), 'the reply in the same thread is cited');
    assert.ok(!cited.includes(other!), 'a message of another thread gains nothing');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const lexical = laneOf(trace, 'lexical');
    assert.match(lexical.candidates.find((c) => c.record_id === reply)!.reason, /surrounding messages/);
  });

  it("ranks the named person's own words first (entity lane)", async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [bobs, anas] = await write(engine, 'b', [
      msg('I love pottery classes.', 'Bob', '2023-05-01T10:00:00Z', 'a'),
      msg('I love pottery classes.', 'Ana', '2023-05-02T10:00:00Z', 'b'),
    ]);
    const ctx = await ask(engine, 'b', 'Does Ana like pottery?');
    assert.equal(ctx.citations[0]!.record_id, anas);
    assert.ok(ctx.citations.some((c) => c.record_id === bobs));
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    assert.match(laneOf(trace, 'entity').candidates[0]!.reason, /said by ana/);
  });

  it('searches inside a named month (time lane) and counts relative times from as_of', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [, march] = await write(engine, 'b', [
      msg('Dinner at the new ramen place.', 'Ana', '2023-02-10T19:00:00Z', 'x'),
      msg('Dinner at the old pizza place.', 'Ana', '2023-03-10T19:00:00Z', 'y'),
    ]);
    const ctx = await ask(engine, 'b', 'dinner in March 2023');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const time = laneOf(trace, 'time');
    assert.deepEqual(
      time.candidates.map((c) => c.record_id),
      [march],
    );
    assert.equal(ctx.citations[0]!.record_id, march);
    const rel = await engine.getTrace(
      tenant,
      'b',
      (await ask(engine, 'b', 'dinner yesterday', { as_of: '2023-03-11T08:00:00Z' })).id,
    );
    assert.deepEqual(
      laneOf(rel, 'time').candidates.map((c) => c.record_id),
      [march],
    );
  });

  it('reads "yesterday" in the calendar of the engine\'s time zone, not UTC', async () => {
    // 21:00 on 4 October in Los Angeles (5 October in UTC): yesterday is 3 October there.
    const asOf = { as_of: '2023-10-05T04:00:00Z' };
    const records = [
      msg('Dinner at the ramen place.', 'Ana', '2023-10-04T03:00:00Z', 'x'), // 3 Oct, 20:00 in LA
      msg('Dinner at the pizza place.', 'Ana', '2023-10-04T19:00:00Z', 'y'), // 4 Oct, 12:00 in LA
    ];
    const { engine: la } = await engineWith({ timeZone: 'America/Los_Angeles' });
    assert.equal(la.info.timeZone, 'America/Los_Angeles');
    await la.createBrain(tenant, { id: 'b' });
    const [ramen] = await write(la, 'b', records);
    const local = laneOf(
      await la.getTrace(tenant, 'b', (await ask(la, 'b', 'dinner yesterday', asOf)).id),
      'time',
    );
    assert.deepEqual(
      local.candidates.map((c) => c.record_id),
      [ramen],
    );
    assert.match(local.candidates[0]!.reason, /occurred yesterday \(2023-10-03\)/);

    const { engine: inUtc } = await engineWith({ timeZone: 'UTC' });
    await inUtc.createBrain(tenant, { id: 'b' });
    const [ramenUtc, pizzaUtc] = await write(inUtc, 'b', records);
    const utcLane = laneOf(
      await inUtc.getTrace(tenant, 'b', (await ask(inUtc, 'b', 'dinner yesterday', asOf)).id),
      'time',
    );
    assert.deepEqual(new Set(utcLane.candidates.map((c) => c.record_id)), new Set([ramenUtc, pizzaUtc]));
  });

  it('refuses an unknown time zone before opening the store', async () => {
    const dir = tempDir();
    await assert.rejects(engineWith({ timeZone: 'Mars/Olympus_Mons' }, dir), /unknown time zone/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("a question about a date finds what was told of it later, and the window's Records that share no word", async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [told, before, quiet, othersQuiet, far] = await write(engine, 'b', [
      msg('Yesterday I met some incredible artists in Boston.', 'Calvin', '2023-10-04T14:00:00Z', 'a'),
      msg('Boston is next on my list of cities.', 'Calvin', '2023-09-01T10:00:00Z', 'b'),
      msg('Long day in the studio, mixing all night.', 'Calvin', '2023-10-03T22:00:00Z', 'c'),
      msg('Long day at the garage with the old Mustang.', 'Dave', '2023-10-03T21:00:00Z', 'c'),
      msg('Studio again, a month later.', 'Calvin', '2023-11-20T10:00:00Z', 'd'),
    ]);
    const ctx = await ask(engine, 'b', 'Which city was Calvin in on October 3, 2023?');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const time = laneOf(trace, 'time');
    const ids = time.candidates.map((c) => c.record_id);
    assert.equal(ids[0], told, 'the Record telling of that day ("yesterday", said the next day) first');
    assert.match(time.candidates[0]!.reason, /tells of October 3, 2023 \("yesterday", on 2023-10-04\)/);
    assert.deepEqual(
      ids.slice(1),
      [quiet, othersQuiet],
      "then the day's own Records, the named person's first",
    );
    assert.match(time.candidates[1]!.reason, /occurred on October 3, 2023 \(2023-10-03\)/);
    assert.ok(!ids.includes(before!) && !ids.includes(far!));
    assert.equal(ctx.citations[0]!.record_id, told);

    // A month's reasons read as said: "tells of mid October" (not "tells of in mid october"), and
    // "occurred" with the month's preposition.
    const month = laneOf(
      await engine.getTrace(
        tenant,
        'b',
        (await ask(engine, 'b', 'Where was Calvin in mid October?', { as_of: '2023-12-01T00:00:00Z' })).id,
      ),
      'time',
    ).candidates.map((c) => c.reason);
    assert.ok(
      month.some((r) => r.startsWith('tells of mid October ("yesterday", on 2023-10-04)')),
      month.join('\n'),
    );
    assert.ok(
      month.some((r) => r.startsWith('occurred in mid October (2023-10-03)')),
      month.join('\n'),
    );

    const range = await engine.getTrace(
      tenant,
      'b',
      (await ask(engine, 'b', 'Where was Calvin between 2 October and 4 October 2023?')).id,
    );
    assert.deepEqual(
      new Set(laneOf(range, 'time').candidates.map((c) => c.record_id)),
      new Set([told, quiet, othersQuiet]),
    );
  });

  it('a Record pointing at a coming day ("next Tuesday") is found by a question about that day', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    // 13 June 2024 is a Thursday: "next Tuesday" is 18 June.
    const [dentist, , tomorrow] = await write(engine, 'b', [
      msg('I have a dentist appointment next Tuesday at 3pm.', 'self', '2024-06-13T09:00:00Z', 'a'),
      msg('Lunch with Bob was fun.', 'self', '2024-06-17T12:00:00Z', 'b'),
      // No word in common with the question: found by the days before the window that point into it.
      msg('Haircut tomorrow morning!', 'self', '2024-06-17T20:00:00Z', 'c'),
      msg('We met on Tuesday, soon again.', 'self', '2024-06-12T20:00:00Z', 'd'),
    ]);
    const timeIds = async (query: string, more: Record<string, unknown> = {}) => {
      const ctx = await ask(engine, 'b', query, more);
      const lane = laneOf(await engine.getTrace(tenant, 'b', ctx.id), 'time');
      return {
        ctx,
        ids: lane.candidates.map((c) => c.record_id),
        reasons: lane.candidates.map((c) => c.reason),
      };
    };
    const onDay = await timeIds('What do I have on 2024-06-18?');
    assert.deepEqual(new Set(onDay.ids), new Set([dentist, tomorrow]));
    assert.ok(onDay.reasons.some((r) => /tells of 2024-06-18 \("next Tuesday", on 2024-06-13\)/.test(r)));
    assert.ok(!onDay.ctx.abstained);
    assert.ok(onDay.ctx.citations.some((c) => c.record_id === dentist));

    const next = await timeIds("What's on next Tuesday?", { as_of: '2024-06-14T10:00:00Z' });
    // As of 14 June the haircut is not yet said.
    assert.deepEqual(next.ids, [dentist]);
    assert.equal(next.ctx.citations[0]!.record_id, dentist);

    const when = await ask(engine, 'b', 'When is my dentist appointment?');
    assert.equal(when.citations[0]!.record_id, dentist);
  });

  it('a query asking for the latest orders its matches newest first (recency lane)', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [old, mid, newest] = await write(engine, 'b', [
      msg('My phone number is 555-0100.', 'Ana', '2021-01-01T10:00:00Z', 'a'),
      msg('New phone number: 555-0199.', 'Ana', '2022-01-01T10:00:00Z', 'b'),
      msg('Changed my phone number again, now 555-0142.', 'Ana', '2023-01-01T10:00:00Z', 'c'),
    ]);
    const ctx = await ask(engine, 'b', 'What is the most recent phone number?');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const lane = laneOf(trace, 'recency');
    assert.deepEqual(
      lane.candidates.map((c) => c.record_id),
      [newest, mid, old],
    );
    assert.match(lane.candidates[0]!.reason, /most recent first/);
    const first = await engine.getTrace(
      tenant,
      'b',
      (await ask(engine, 'b', 'the earliest phone number')).id,
    );
    assert.deepEqual(
      laneOf(first, 'recency').candidates.map((c) => c.record_id),
      [old, mid, newest],
    );
  });

  it('a question asking when prefers the matches that say when (when lane); others do not run it', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [said, dated] = await write(engine, 'b', [
      msg('Lisbon is my favourite city, the light there is wonderful.', 'Ana', '2023-05-01T10:00:00Z', 'a'),
      msg('I went to Lisbon last week with my sister.', 'Ana', '2023-05-02T10:00:00Z', 'b'),
    ]);
    const ctx = await ask(engine, 'b', 'When did Ana go to Lisbon?');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const when = laneOf(trace, 'when');
    assert.deepEqual(
      when.candidates.map((c) => c.record_id),
      [dated],
    );
    assert.match(when.candidates[0]!.reason, /says when \("last week"\)/);
    assert.equal(ctx.citations[0]!.record_id, dated);
    assert.ok(ctx.citations.some((c) => c.record_id === said));

    const other = await engine.getTrace(
      tenant,
      'b',
      (await ask(engine, 'b', 'What does Ana love about Lisbon?')).id,
    );
    assert.deepEqual(laneOf(other, 'when').candidates, []);
  });

  it('brings in the message that prompted a strong match (prompt lane), within the filters', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [, prompt, answer, later] = await write(engine, 'b', [
      msg('Nope, never been to one of those.', 'Bob', '2023-05-01T10:00:00Z'),
      msg('What was it about? What made it so special?', 'Bob', '2023-05-01T10:01:00Z'),
      msg('The poetry reading was about loss, identity and connection.', 'Ana', '2023-05-01T10:02:00Z'),
      msg('Sounds wonderful.', 'Bob', '2023-05-01T10:03:00Z'),
    ]);
    // The answer says the reading but not what it was like: it needs the question it answers. (Had the
    // query been all the answer's words, "poetry reading", the answer would stand alone without it.)
    const ctx = await ask(engine, 'b', 'what was the poetry reading like?');
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const lane = laneOf(trace, 'prompt');
    assert.equal(lane.candidates[0]!.record_id, prompt);
    assert.match(lane.candidates[0]!.reason, /just before a strong match/);
    assert.ok(!lane.candidates.some((c) => c.record_id === later), 'only the message before, not after');
    const cited = ctx.citations.map((c) => c.record_id);
    assert.equal(cited[0], answer);
    assert.ok(cited.includes(prompt!));

    // A prompt outside the requested window is not evidence, however strong its answer.
    const since = await ask(engine, 'b', 'what was the poetry reading like?', {
      filter: { since: '2023-05-01T10:02:00Z' },
    });
    const t2 = await engine.getTrace(tenant, 'b', since.id);
    assert.ok(!laneOf(t2, 'prompt').candidates.some((c) => c.record_id === prompt));
    assert.ok(!since.citations.some((c) => c.record_id === prompt));
  });

  it('embeds the query without the speakers it names: the semantic lane looks for the topic', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    const [pasta] = await write(engine, 'b', [
      msg('Pasta with basil.', 'Ben', '2024-03-01T19:00:00Z', 'x'),
      msg('Sailing today.', 'Ana', '2024-03-02T10:00:00Z', 'y'),
      msg('Long day.', 'Ana', '2024-03-03T10:00:00Z', 'z'),
    ]);
    const events: ContextEvent[] = [];
    const ctx = await ask(engine, 'b', 'What pasta does Ana like?', { mode: 'thorough' }, (e) =>
      events.push(e),
    );
    const semantic = laneOf(await engine.getTrace(tenant, 'b', ctx.id), 'semantic');
    // Ana's short messages share only her name with the query; in the query vector it would outweigh "pasta".
    assert.equal(semantic.candidates[0]?.record_id, pasta);
    const embed = events.find((e) => e.event === 'stage' && e.data['stage'] === 'embed');
    assert.equal(embed?.data['text'], 'What pasta does like?');
  });

  it('fast makes exactly one embedding call, counted by the ledger; without an embedder, none', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    await write(engine, 'b', [msg('The wifi password is on the fridge.', 'Ana', '2023-05-01T10:00:00Z')]);
    assert.equal(engine.info.vectorCopyBytes, 0, 'no Brain searched yet: no copy loaded');
    const ctx = await ask(engine, 'b', 'wifi password');
    assert.ok(engine.info.vectorCopyBytes! > 0, 'the searched Brain has its vectors in memory');
    assert.deepEqual(ctx.cost, {
      ...ctx.cost,
      embedding_calls: 1,
      model_calls_total: 1,
      generative_calls: 0,
    });
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    const sem = laneOf(trace, 'semantic');
    assert.match(sem.candidates[0]!.reason, /cosine .*hash hash-64/);
    assert.equal(engine.info.embedder, 'hash:hash-64');

    const { engine: plain } = await engineWith({ embedder: null });
    await plain.createBrain(tenant, { id: 'b' });
    await write(plain, 'b', [msg('The wifi password is on the fridge.', 'Ana', '2023-05-01T10:00:00Z')]);
    const c2 = await ask(plain, 'b', 'wifi password');
    assert.equal(c2.cost.embedding_calls, 0);
    assert.equal(c2.citations.length, 1);
  });

  it('thorough expands the query and reports its stages; a tiny budget.ms returns the best so far, flagged', async () => {
    // A lane that always outlasts 1 ms: three Records alone can be searched within it on a quick run.
    const slow = { name: 'slow', search: async () => (await new Promise((r) => setTimeout(r, 5)), []) };
    const { engine } = await engineWith({ lanes: [slow] });
    await engine.createBrain(tenant, { id: 'b' });
    await write(engine, 'b', [
      msg('I signed up for a pottery class, it is like therapy.', 'Ana', '2023-05-01T10:00:00Z', 'a'),
      msg('Pottery again today; clay everywhere, glazing next week.', 'Ana', '2023-05-08T10:00:00Z', 'b'),
      msg('Glazing went well, the kiln was hot.', 'Ana', '2023-05-15T10:00:00Z', 'c'),
    ]);
    const events: ContextEvent[] = [];
    const ctx = await ask(engine, 'b', 'pottery class', { mode: 'thorough', include: ['explain'] }, (e) =>
      events.push(e),
    );
    const stages = events.filter((e) => e.event === 'stage').map((e) => e.data['stage']);
    for (const s of ['embed', 'lane', 'expand', 'fuse'])
      assert.ok(stages.includes(s), `stage ${s} in ${stages.join(',')}`);
    const explain = ctx.explain as { expansion: string[] };
    assert.ok(explain.expansion.length > 0);
    const trace = await engine.getTrace(tenant, 'b', ctx.id);
    assert.ok(trace.lanes.some((l) => l.name === 'feedback'));

    const hurried = await ask(engine, 'b', 'pottery class', { budget: { tokens: 8000, ms: 1 } });
    assert.equal(hurried.budget.ms, 1);
    assert.equal(hurried.budget.ms_exceeded, true);
    assert.ok(hurried.citations.length > 0, 'still returns what it found');
  });

  it('a thorough request over --thorough-sync-ms answers processing, then the finished Context when sent again', async () => {
    // The first search waits for the test (a loaded machine must not finish it before the Trace is
    // read); later ones take 60 ms, past the 10 ms a thorough request may wait.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let searches = 0;
    const slow = {
      name: 'slow',
      search: async () => {
        searches += 1;
        await (searches === 1 ? gate : new Promise((r) => setTimeout(r, 60)));
        return [];
      },
    };
    const { engine } = await engineWith({ thoroughSyncMs: 10, lanes: [slow] });
    await engine.createBrain(tenant, { id: 'b' });
    await write(engine, 'b', [msg('The spare key is under the blue pot.', 'Ana', '2023-05-01T10:00:00Z')]);
    const body = { query: 'spare key', mode: 'thorough' as const };
    const first = await engine.createContext(tenant, 'b', body, opts);
    assert.equal(first.status, 'processing');
    assert.deepEqual(first.unknowns, ['spare key']);
    assert.equal((await engine.getTrace(tenant, 'b', first.id)).status, 'processing');
    release();
    for (let i = 0; i < 500 && (await engine.getTrace(tenant, 'b', first.id)).status === 'processing'; i++)
      await new Promise((r) => setTimeout(r, 10));
    const again = await engine.createContext(tenant, 'b', body, opts);
    assert.equal(again.status, 'ready');
    assert.equal(again.citations.length, 1);
    // One Context: the id the 202 announced, whose Trace now tells the finished story.
    assert.equal(again.id, first.id);
    const trace = await engine.getTrace(tenant, 'b', first.id);
    assert.equal(trace.status, 'ready');
    assert.equal(trace.citations.length, 1);
    assert.equal(
      (await engine.listTraces(tenant, 'b', { limit: 100 })).data.filter((t) => t.id === first.id).length,
      1,
    );
    // Fast is never deferred, and a stream reports progress instead of deferring.
    assert.equal((await engine.createContext(tenant, 'b', { query: 'spare key' }, opts)).status, 'ready');
    const streamed = await engine.createContext(tenant, 'b', body, { ...opts, onEvent: () => {} });
    assert.equal(streamed.status, 'ready');
  });

  it('the synchronous budget holds when the lanes are synchronous work that never awaits', async () => {
    const busy = {
      name: 'busy',
      search: () => {
        const until = performance.now() + 40;
        while (performance.now() < until) {
          // Stands for a long SQLite scan: CPU work that gives the event loop no turn.
        }
        return [];
      },
    };
    const { engine } = await engineWith({ thoroughSyncMs: 5, lanes: [busy] });
    await engine.createBrain(tenant, { id: 'b' });
    await write(engine, 'b', [msg('The spare key is under the blue pot.', 'Ana', '2023-05-01T10:00:00Z')]);
    const body = { query: 'spare key', mode: 'thorough' as const };
    const first = await engine.createContext(tenant, 'b', body, opts);
    let again = first;
    assert.equal(first.status, 'processing');
    // Asked again until it is done (on a loaded machine that is not a fixed time later): the same Context.
    for (const deadline = Date.now() + 10_000; again.status === 'processing' && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 20));
      again = await engine.createContext(tenant, 'b', body, opts);
    }
    assert.deepEqual([again.status, again.id], ['ready', first.id]);
  });

  it('a forget drops kept thorough Contexts and the traces that name the forgotten Record', async () => {
    const slow = { name: 'slow', search: async () => (await new Promise((r) => setTimeout(r, 40)), []) };
    const { engine } = await engineWith({ thoroughSyncMs: 10, lanes: [slow] });
    await engine.createBrain(tenant, { id: 'b' });
    const [key, pot] = await write(engine, 'b', [
      msg('The spare key is under the blue pot.', 'Ana', '2023-05-01T10:00:00Z'),
      msg('The blue pot has a spare key sticker.', 'Bob', '2023-05-01T10:01:00Z'),
    ]);
    const fast = await engine.createContext(tenant, 'b', { query: 'spare key' }, opts);
    assert.ok(fast.citations.some((c) => c.record_id === key!));
    const body = { query: 'spare key', mode: 'thorough' as const };
    assert.equal((await engine.createContext(tenant, 'b', body, opts)).status, 'processing');
    await new Promise((r) => setTimeout(r, 150)); // the kept Context is finished, citing both
    await engine.forgetRecord(tenant, 'b', key!);
    await assert.rejects(
      engine.getTrace(tenant, 'b', fast.id),
      (e: MnemoError) => e.code === 'trace_not_found',
    );
    const listed = await engine.listTraces(tenant, 'b', { limit: 100 });
    assert.ok(listed.data.every((t) => t.id !== fast.id));
    // Assembled afresh over what is left: never the kept Context that cites the forgotten Record.
    let again = await engine.createContext(tenant, 'b', body, opts);
    for (let i = 0; again.status === 'processing' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await engine.createContext(tenant, 'b', body, opts);
    }
    assert.equal(again.status, 'ready');
    assert.deepEqual(
      again.citations.map((c) => c.record_id),
      [pot!],
    );
  });

  it('a write after a thorough 202 makes the kept Context stale: sent again without a Brain-Watermark, it is assembled afresh', async () => {
    const slow = { name: 'slow', search: async () => (await new Promise((r) => setTimeout(r, 40)), []) };
    const { engine } = await engineWith({ thoroughSyncMs: 10, lanes: [slow] });
    await engine.createBrain(tenant, { id: 'b' });
    const [porto] = await write(engine, 'b', [
      msg('The spare key is in Porto.', 'Ana', '2023-05-01T10:00:00Z'),
    ]);
    const body = { query: 'spare key', mode: 'thorough' as const };
    const first = await engine.createContext(tenant, 'b', body, opts);
    assert.equal(first.status, 'processing');
    const withMark = { ...opts, watermark: first.watermark };
    const marked = await engine.createContext(tenant, 'b', body, withMark);
    assert.equal(marked.status, 'processing');
    await new Promise((r) => setTimeout(r, 150)); // both kept Contexts are finished, citing Porto alone
    const [braga] = await write(engine, 'b', [
      msg('The spare key is in Braga now.', 'Ana', '2023-06-01T10:00:00Z'),
    ]);
    // With a Brain-Watermark, the kept Context is at or after that boundary: served as it is.
    const markedDone = await engine.createContext(tenant, 'b', body, withMark);
    assert.deepEqual([markedDone.status, markedDone.id], ['ready', marked.id]);
    // Without one, the request asks for the freshest data: the Context kept from before the write is
    // not served; a new assembly (a new id) is, once finished, and it cites the new Record.
    const again = await engine.createContext(tenant, 'b', body, opts);
    assert.equal(again.status, 'processing');
    assert.notEqual(again.id, first.id);
    let done: Context = again;
    for (let i = 0; done.status === 'processing' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      done = await engine.createContext(tenant, 'b', body, opts);
    }
    assert.deepEqual([done.status, done.id], ['ready', again.id]);
    assert.ok(done.citations.some((c) => c.record_id === braga!));
    assert.ok(done.citations.some((c) => c.record_id === porto!));
  });

  it('a Record forgotten while a thorough assembly runs: its Trace is not kept, and no kept Context cites it', async () => {
    const slow = { name: 'slow', search: async () => (await new Promise((r) => setTimeout(r, 60)), []) };
    const { engine } = await engineWith({ thoroughSyncMs: 10, lanes: [slow] });
    await engine.createBrain(tenant, { id: 'b' });
    const [key] = await write(engine, 'b', [
      msg('The spare key is under the blue pot.', 'Ana', '2023-05-01T10:00:00Z'),
    ]);
    const body = { query: 'spare key', mode: 'thorough' as const };
    const first = await engine.createContext(tenant, 'b', body, opts);
    assert.equal(first.status, 'processing');
    await engine.forgetRecord(tenant, 'b', key!); // the assembly has read the Record already
    await new Promise((r) => setTimeout(r, 200));
    await assert.rejects(
      engine.getTrace(tenant, 'b', first.id),
      (e: MnemoError) => e.code === 'trace_not_found',
    );
    let again = await engine.createContext(tenant, 'b', body, opts);
    for (let i = 0; again.status === 'processing' && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await engine.createContext(tenant, 'b', body, opts);
    }
    assert.deepEqual(again.citations, []);
  });

  it('a thorough assembly failing after its 202 leaves a failed Trace under the announced id, and tells the retry', async () => {
    let calls = 0;
    const flaky = {
      name: 'flaky',
      search: async () => {
        calls += 1;
        await new Promise((r) => setTimeout(r, 40));
        if (calls === 1) throw new Error('lane exploded');
        return [];
      },
    };
    const errors: string[] = [];
    const logger = { info: () => {}, warn: () => {}, error: (m: string) => void errors.push(m) };
    const { engine } = await engineWith({ thoroughSyncMs: 10, lanes: [flaky], logger });
    await engine.createBrain(tenant, { id: 'b' });
    await write(engine, 'b', [msg('The spare key is under the blue pot.', 'Ana', '2023-05-01T10:00:00Z')]);
    const body = { query: 'spare key', mode: 'thorough' as const };
    const first = await engine.createContext(tenant, 'b', body, opts);
    assert.equal(first.status, 'processing');
    await new Promise((r) => setTimeout(r, 150));
    const trace = await engine.getTrace(tenant, 'b', first.id);
    assert.deepEqual([trace.status, trace.error?.code], ['failed', 'internal_error']);
    assert.deepEqual(errors, ['thorough Context failed after its 202']);
    await assert.rejects(engine.createContext(tenant, 'b', body, opts), /lane exploded/);
    // Told once; the next request assembles afresh.
    assert.equal((await engine.createContext(tenant, 'b', body, opts)).status, 'processing');
  });

  it('forgetting a Record removes its vector bytes and its text from its neighbours’ index rows', async () => {
    const dir = tempDir();
    // Unencrypted, so the file's bytes can be scanned for the vector and the text.
    const engine = await createLocalEngine({
      dataDir: dir,
      dbKey: null,
      embedder: { provider: 'hash', dataDir: dir },
    });
    await engine.createBrain(tenant, { id: 'b' });
    const secret = 'zanzibarquokka';
    const [, gone] = await write(engine, 'b', [
      msg('What was the code name?', 'Bob', '2023-05-01T10:00:00Z'),
      msg(`It was ${secret} all along`, 'Ana', '2023-05-01T10:01:00Z'),
      msg('Thanks, noted.', 'Bob', '2023-05-01T10:02:00Z'),
    ]);
    const vector = quantize(createHashModel(64).embedOne(`Ana: It was ${secret} all along`))!;
    const chunks = () => {
      const db = new Database(join(dir, 'mnemo.db'), { readonly: true });
      try {
        return (
          db.prepare('SELECT vectors FROM vec8_record_1_vector_chunks00').all() as Array<{ vectors: Buffer }>
        ).map((r) => r.vectors);
      } finally {
        db.close();
      }
    };
    assert.ok(
      chunks().some((b) => b.includes(vector)),
      'the vector is stored (sanity check)',
    );
    await engine.forgetRecord(tenant, 'b', gone!);
    await engine.idle();
    assert.ok(!chunks().some((b) => b.includes(vector)), 'vector overwritten in its chunk');
    const ctx = await ask(engine, 'b', 'code name');
    assert.ok(ctx.citations.length >= 1, 'neighbours are indexed again');
    await engine.close();
    const files = readdirSync(dir)
      .filter((f) => f.startsWith('mnemo.db'))
      .map((f) => readFileSync(join(dir, f)));
    assert.ok(!files.some((b) => b.includes(vector)), 'vector bytes gone from the files');
    assert.ok(!files.some((b) => b.includes(Buffer.from(secret))), 'text gone, neighbours’ rows included');
  });

  it('the lexical lane scores as FTS5 does from its in-memory copy, before and after a forget', async () => {
    const dir = tempDir();
    const engine = await createLocalEngine({ dataDir: dir, dbKey: null, embedder: null });
    after(() => engine.close());
    for (const b of ['b', 'other']) await engine.createBrain(tenant, { id: b });
    const words = 'garden tomato lake painting beach trip sister'.split(' ');
    const lines = Array.from({ length: 40 }, (_, i) =>
      msg(
        // Each line its own (a number of its own): the lane puts a line said again behind the others.
        `${words[i % 7]} and ${words[(i * 3) % 7]} ${i % 4 === 0 ? words[(i + 2) % 7] : ''} ${i}`,
        i % 2 ? 'Ana' : 'Bob',
        `2023-05-01T10:${String(i).padStart(2, '0')}:00Z`,
        i < 20 ? 't1' : 't2',
      ),
    );
    const ids = await write(engine, 'b', lines);
    await write(engine, 'other', lines.slice(0, 10));
    const file = new Database(join(dir, 'mnemo.db'), { readonly: true });
    after(() => file.close());
    /** FTS5's own ranking of the Brain's rows, by Record id (read through a second connection). */
    const ftsScores = (query: string, brainUid: string) =>
      new Map(
        (
          file
            .prepare(
              `SELECT r.id AS id, t.score AS score FROM (${ftsRankingSql}) t CROSS JOIN records r ON r.n = t.n`,
            )
            .all(`scope:${scopeToken(brainUid)} AND (${query.split(' ').join(' OR ')})`, 100) as Array<{
            id: string;
            score: number;
          }>
        ).map((r) => [r.id, r.score]),
      );
    const brainUid = (
      file.prepare('SELECT brain_uid AS u FROM records WHERE id = ?').get(ids[0]) as { u: string }
    ).u;
    const assertFtsScores = async (query: string) => {
      const answers = engine.info.lexicalCopyAnswers ?? 0;
      const ctx = await ask(engine, 'b', query);
      assert.ok((engine.info.lexicalCopyAnswers ?? 0) > answers, 'the copy answered');
      const lexical = laneOf(await engine.getTrace(tenant, 'b', ctx.id), 'lexical').candidates;
      assert.ok(lexical.length > 5);
      const fts = [...ftsScores(query, brainUid)];
      assert.deepEqual(
        lexical.map((c) => [c.record_id, c.score]),
        fts.slice(0, lexical.length),
      );
    };
    await assertFtsScores('tomato sister');
    // The delete trigger names the Record and the neighbours whose rows carried its words, first: the
    // indexer may have written those rows again before the forget was answered (its fsync lets it run).
    const logged = () =>
      (file.prepare('SELECT n FROM turn_log ORDER BY seq').all() as Array<{ n: number }>).map((r) => r.n);
    const nOf = (id: string) =>
      (file.prepare('SELECT n FROM records WHERE id = ?').get(id) as { n: number }).n;
    const expected = [4, 5, 6, 7].map((i) => nOf(ids[i]!)); // one before it, it, two after it
    const was = logged().length;
    await engine.forgetRecord(tenant, 'b', ids[5]!);
    assert.deepEqual(
      logged()
        .slice(was, was + expected.length)
        .sort(),
      expected.sort(),
    );
    await assertFtsScores('tomato sister');
    await assertFtsScores('lake');
  });

  it('a change of model re-embeds everything in the background and never mixes spaces', async () => {
    const dir = tempDir();
    const first = await createLocalEngine({
      dataDir: dir,
      dbKey: testStoreKey,
      embedder: { provider: 'hash', dataDir: dir },
    });
    await first.createBrain(tenant, { id: 'b' });
    await write(first, 'b', [msg('Tea with lemon, no sugar.', 'Ana', '2023-05-01T10:00:00Z')]);
    await first.close();
    const { engine } = await engineWith({ dbKey: testStoreKey, embedder: createHashModelEmbedder(32) }, dir);
    await engine.idle();
    const ctx = await ask(engine, 'b', 'tea lemon');
    const sem = laneOf(await engine.getTrace(tenant, 'b', ctx.id), 'semantic');
    assert.equal(sem.candidates.length, 1);
    assert.match(sem.candidates[0]!.reason, /hash-32/);
  });

  it('processing_units count the neighbours the semantic scan ranked, not the k it asked for', async () => {
    const { engine } = await engineWith();
    await engine.createBrain(tenant, { id: 'b' });
    await write(engine, 'b', [msg('Tea with lemon, no sugar.', 'Ana', '2023-05-01T10:00:00Z')]);
    const plain = await ask(engine, 'b', 'tea lemon');
    const filtered = await ask(engine, 'b', 'tea lemon', { filter: { since: '2000-01-01T00:00:00Z' } });
    assert.equal(filtered.citations.length, 1);
    assert.equal(plain.cost.embedding_calls, 1);
    // One Record: one neighbour whatever k (50, or 200 with a filter); a larger Brain ranks more with one.
    assert.equal(filtered.cost.processing_units, plain.cost.processing_units);
    // Less the assembled text's share (a unit per 1,000 tokens), what is left is rows ranked: far under k's 50.
    const ranked = plain.cost.processing_units - plain.budget.estimated_tokens / 1000;
    assert.ok(ranked < 0.05, `one Record, ${ranked} units of ranking`);
  });

  it('an embedder still loading: a Context waits for it within budget.ms, and past that says the lane did not run', async () => {
    // Loaded when the test says, not after a delay a busy machine can outlast before the first ask.
    // Meanwhile something must keep the process alive, as a server's socket does: the engine's own
    // wait for the model is a timer that does not.
    const alive = setInterval(() => {}, 1000);
    after(() => clearInterval(alive));
    let loaded!: (embedder: ReturnType<typeof createHashModelEmbedder>) => void;
    const loading = new Promise<ReturnType<typeof createHashModelEmbedder>>((r) => (loaded = r));
    const { engine } = await engineWith({ embedder: loading });
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(
      tenant,
      'b',
      msg('Tea with lemon, no sugar.', 'Ana', '2023-05-01T10:00:00Z'),
      {},
    );
    const hurried = await ask(engine, 'b', 'tea lemon', { budget: { ms: 20 } });
    assert.equal(hurried.cost.embedding_calls, 0);
    assert.ok(hurried.citations.length === 1, 'lexical retrieval answers meanwhile');
    const lanes = (await engine.getTrace(tenant, 'b', hurried.id)).lanes.map((l) => l.name);
    assert.ok(lanes.includes('semantic (not run: the embedder is still loading)'), lanes.join(', '));
    assert.ok(!lanes.includes('semantic'), 'listed once, as not run');
    const asked = ask(engine, 'b', 'tea lemon');
    setTimeout(() => loaded(createHashModelEmbedder(16)), 100);
    const patient = await asked;
    assert.equal(patient.cost.embedding_calls, 1, 'waited for the model, then made the one call');
  });

  it('a failing query embedding costs the semantic lane, not the Context', async () => {
    const broken = {
      ...createHashModelEmbedder(16),
      embed: async () => Promise.reject(new Error('embedding worker exited')),
    };
    const { engine } = await engineWith({ embedder: broken });
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(
      tenant,
      'b',
      msg('Tea with lemon, no sugar.', 'Ana', '2023-05-01T10:00:00Z'),
      {},
    );
    const ctx = await ask(engine, 'b', 'tea lemon');
    assert.equal(ctx.citations.length, 1);
    const lanes = (await engine.getTrace(tenant, 'b', ctx.id)).lanes.map((l) => l.name);
    assert.ok(
      lanes.includes('semantic (not run: the query embedding failed: Error: embedding worker exited)'),
      lanes.join(', '),
    );
  });

  it('a model id that comes back with another width turns semantic retrieval off, logged, not the engine down', async () => {
    const dir = tempDir();
    const first = await createLocalEngine({
      dataDir: dir,
      dbKey: testStoreKey,
      embedder: createHashModelEmbedder(32),
    });
    await first.createBrain(tenant, { id: 'b' });
    await write(first, 'b', [msg('Tea with lemon, no sugar.', 'Ana', '2023-05-01T10:00:00Z')]);
    await first.close();
    const errors: string[] = [];
    const logger = { info: () => {}, warn: () => {}, error: (m: string) => void errors.push(m) };
    const clash = { ...createHashModelEmbedder(48), model: 'hash-32' };
    const { engine } = await engineWith({ dbKey: testStoreKey, embedder: clash, logger }, dir);
    await engine.idle();
    const ctx = await ask(engine, 'b', 'tea lemon');
    assert.equal(ctx.citations.length, 1, 'lexical retrieval still answers');
    assert.equal(ctx.cost.embedding_calls, 0);
    assert.deepEqual(errors, ['embedder cannot be used with this store; semantic retrieval is off']);
  });
});

/** An in-thread Embedder over the hash model (a different model id from the default 64-d one). */
function createHashModelEmbedder(dims: number) {
  const m = createHashModel(dims);
  return {
    provider: 'hash',
    model: `hash-${dims}`,
    dims,
    embed: async (t: readonly string[]) => t.map((x) => m.embedOne(x)),
    close: async () => {},
  };
}
