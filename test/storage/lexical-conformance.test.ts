import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgLexicalIndex } from '../../engine/adapters/postgres/lexical-index.ts';
import { pgThreadIndex } from '../../engine/adapters/postgres/thread-index.ts';
import { pgVectorIndex } from '../../engine/adapters/postgres/vector-index.ts';
import { migrate } from '../../engine/adapters/postgres/migrate.ts';
import {
  addBrain as addPgBrain,
  migratedPglite,
  serverForTests,
} from '../../engine/adapters/postgres/testing/fixtures.ts';
import { insertMemory, insertRecord } from '../../engine/adapters/postgres/testing/records.ts';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import { createSqliteLexicalIndex } from '../../engine/adapters/sqlite/lexical-index.ts';
import { createSqliteThreadIndex } from '../../engine/adapters/sqlite/thread-index.ts';
import { tempStore } from '../../engine/adapters/sqlite/testing.ts';
import { createTurnCopies } from '../../engine/adapters/sqlite/turn-copies.ts';
import { createSqliteVectorIndex } from '../../engine/adapters/sqlite/vector-index.ts';
import type {
  LexicalHit,
  LexicalIndex,
  SearchScope,
  ThreadIndex,
  VectorIndex,
} from '../../engine/ports/index.ts';
import { createRetrievalIndexer } from '../../engine/retrieve/retrieval-indexer.ts';
import { sqliteIndexQueue } from '../../engine/adapters/sqlite/index-queue.ts';

/*
 * What the lanes read from a lexical index besides its ranking, the same on every adapter: each hit's
 * text, speaker and time, and the Records of a time window. The scores are each backend's own (the
 * reranker names the backend it was trained on), so these cases compare no scores.
 */

interface Rec {
  id: string;
  text: string;
  kind?: 'message' | 'document';
  speaker?: string;
  occurredMs: number;
  source?: string;
  visibility?: 'local_only' | 'shareable';
}

const t0 = Date.UTC(2024, 0, 1);
const min = 60_000;
const long = `kayak ${'and the river bends '.repeat(150)}`;
const records: Rec[] = [
  {
    id: 'r_ana',
    text: 'the kayak trip to Porto',
    speaker: '  Ana Lee ',
    occurredMs: t0 + 2 * min,
    source: 'chat',
  },
  { id: 'r_bob', text: 'a kayak lesson', speaker: 'BOB', occurredMs: t0, source: 'mail' },
  { id: 'r_doc', text: 'kayak repairs manual', kind: 'document', occurredMs: t0 + 4 * min },
  { id: 'r_none', text: 'kayak with no speaker', occurredMs: t0 + 3 * min },
  { id: 'r_empty', text: 'kayak said by nobody', speaker: '', occurredMs: t0 + 5 * min },
  {
    id: 'r_local',
    text: 'kayak kept local',
    speaker: 'Ana Lee',
    occurredMs: t0 + min,
    visibility: 'local_only',
  },
  { id: 'r_long', text: long, speaker: 'Ana Lee', occurredMs: t0 + 6 * min },
  { id: 'r_bread', text: 'bread recipe', speaker: 'Bob', occurredMs: t0 + 7 * min },
  // Before every window the cases ask about, alone in its thread; its length counts code points.
  { id: 'r_emoji', text: 'Bread? 🍞 again', speaker: 'Bob', occurredMs: t0 - min },
];

/** Documents of a Brain of their own ('brn_fold'), found by the words below only once folded. */
const folded = [
  { id: 'r_street', text: 'The flat on Hauptstraße has a balcony' },
  { id: 'r_shout', text: 'PARKING ON BAHNHOFSTRASSE IS FREE' },
  { id: 'r_odos', text: 'Η ΟΔΟΣ ΕΡΜΟΥ είναι κλειστή' },
];

function content(r: Rec): Record<string, unknown> {
  return r.kind === 'document'
    ? { kind: 'document', text: r.text }
    : {
        kind: 'message',
        text: r.text,
        thread: r.id === 'r_bread' ? 't2' : r.id === 'r_emoji' ? 't3' : 't1',
        ...(r.speaker !== undefined ? { speaker: r.speaker } : {}),
      };
}

/** The indexes under test, and a Memory's rowid by id. */
interface Indexes {
  lexical: LexicalIndex;
  vectors: VectorIndex;
  threads: ThreadIndex;
  memoryN(id: string): Promise<number>;
}

/** Memories and the Records they cite. */
const memories: Record<string, string[]> = { mem_a: ['r_ana', 'r_local'], mem_b: ['r_bread'] };

function sqliteIndexes(): Indexes {
  const store = tempStore('mnemo-lexical-conformance-');
  store.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('brn_lc', 'p', 'test', 'lc', '2024-01-01T00:00:00Z')",
  );
  records.forEach((r, i) =>
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, source_name, occurred_at, occurred_ms, created_at)
       VALUES (?, ?, 'brn_lc', ?, ?, ?, ?, 'high', ?, ?, ?, ?, '2024-01-01T00:00:00Z')`,
      i + 1,
      r.id,
      i + 1,
      r.kind ?? 'message',
      JSON.stringify(content(r)),
      r.text,
      r.visibility ?? 'shareable',
      r.source ?? null,
      new Date(r.occurredMs).toISOString(),
      r.occurredMs,
    ),
  );
  // A Memory must cite a Record by the end of its transaction: the citations go first.
  for (const [id, cited] of Object.entries(memories))
    store.tx(() => {
      for (const r of cited)
        store.run('INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?)', id, r, 'hi');
      store.run(
        `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, source_key,
                               valid_from, valid_from_ms, status, seq, learned_at, cause)
         VALUES (?, 'brn_lc', ?, 1, 'hi', 'hi', 'ana', 'self', '', '2024-01-01T00:00:00Z', 0,
                 'active', 1, '2024-01-01T00:00:00Z', 'derived')`,
        id,
        id,
      );
    });
  store.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('brn_fold', 'p', 'test', 'fold', '2024-01-01T00:00:00Z')",
  );
  folded.forEach((r, i) =>
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (?, ?, 'brn_fold', ?, 'document', ?, ?, 'high', 'shareable', ?, ?, '2024-01-01T00:00:00Z')`,
      records.length + i + 1,
      r.id,
      i + 1,
      JSON.stringify({ kind: 'document', text: r.text }),
      r.text,
      new Date(t0).toISOString(),
      t0,
    ),
  );
  const turns = createTurnCopies(store);
  const vectors = createSqliteVectorIndex(store, { now: () => '' });
  const indexer = createRetrievalIndexer({
    queue: sqliteIndexQueue(store, { vectors, turns }),
    logger: { warn() {}, error() {} },
  });
  indexer.catchUp('brn_lc');
  indexer.catchUp('brn_fold');
  return {
    lexical: createSqliteLexicalIndex(store, turns),
    vectors,
    threads: createSqliteThreadIndex(store),
    memoryN: async (id) => store.get<{ n: number }>('SELECT n FROM memories WHERE id = ?', id)!.n,
  };
}

async function pgIndexes(db: PgClient): Promise<Indexes> {
  await addPgBrain(db, 'brn_lc');
  for (const r of records)
    await insertRecord(db, {
      brainUid: 'brn_lc',
      id: r.id,
      text: r.text,
      kind: r.kind ?? 'message',
      content: content(r),
      occurredMs: r.occurredMs,
      source: r.source ?? null,
      visibility: r.visibility ?? 'shareable',
    });
  await addPgBrain(db, 'brn_fold');
  for (const r of folded)
    await insertRecord(db, {
      brainUid: 'brn_fold',
      id: r.id,
      text: r.text,
      kind: 'document',
      content: { kind: 'document', text: r.text },
      occurredMs: t0,
    });
  for (const [id, cited] of Object.entries(memories)) {
    await insertMemory(db, 'brn_lc', id, cited[0]!, 'hi');
    for (const r of cited.slice(1))
      await db.query(
        "INSERT INTO citations (brain_uid, memory_id, record_id, quote) VALUES ('brn_lc', $1, $2, 'hi')",
        [id, r],
      );
  }
  return {
    lexical: pgLexicalIndex(db),
    vectors: pgVectorIndex(db),
    threads: pgThreadIndex(db),
    memoryN: async (id) =>
      (await db.query<{ n: number }>("SELECT n FROM memories WHERE brain_uid = 'brn_lc' AND id = $1", [id]))
        .rows[0]!.n,
  };
}

async function migratedDatabase(cluster: ReturnType<typeof server.cluster>): Promise<PgClient> {
  const db = cluster.connect(await cluster.freshDatabase(), 2);
  await migrate(db);
  return db;
}

const scope = (over: Partial<SearchScope> = {}): SearchScope => ({
  brainUid: 'brn_lc',
  excludeLocalOnly: false,
  ...over,
});

/** A hit without its score and rowid, which are the backend's own. */
const shape = (h: LexicalHit) => ({ id: h.recordId, text: h.text, speaker: h.speakerNorm, at: h.occurredMs });

function conformance(name: string, indexes: Indexes | null, skip: string | false = false) {
  const index = indexes?.lexical;
  describe(`the lexical index's hits, ${name}`, { skip }, () => {
    it("carry each Record's text (its first 2,000 characters), speaker as a query names them, and time", async () => {
      const hits = await index!.search({ terms: ['kayak'], scope: scope(), cut: 50, limit: 50 });
      assert.deepEqual(
        hits.map(shape).sort((a, b) => a.at - b.at),
        [
          { id: 'r_bob', text: 'a kayak lesson', speaker: 'bob', at: t0 },
          { id: 'r_local', text: 'kayak kept local', speaker: 'ana lee', at: t0 + min },
          { id: 'r_ana', text: 'the kayak trip to Porto', speaker: 'ana lee', at: t0 + 2 * min },
          { id: 'r_none', text: 'kayak with no speaker', speaker: null, at: t0 + 3 * min },
          { id: 'r_doc', text: 'kayak repairs manual', speaker: null, at: t0 + 4 * min },
          { id: 'r_empty', text: 'kayak said by nobody', speaker: null, at: t0 + 5 * min },
          { id: 'r_long', text: long.slice(0, 2000), speaker: 'ana lee', at: t0 + 6 * min },
        ],
      );
      assert.ok(
        hits.every((h, i) => Number.isInteger(h.recordN) && (i === 0 || hits[i - 1]!.score >= h.score)),
      );
    });

    it("give the texts, times, kinds and speakers of Records other lanes found, as a hit carries them, of the Brain's only", async () => {
      const texts = async (brainUid: string, ids: string[]) =>
        (await index!.texts(brainUid, ids)).sort((a, b) => (a.recordId < b.recordId ? -1 : 1));
      const read = (id: string, text: string, speakerNorm: string | null, at: number, kind = 'message') => ({
        recordId: id,
        text,
        occurredMs: at,
        kind,
        speakerNorm,
      });
      assert.deepEqual(
        await texts('brn_lc', ['r_long', 'r_missing', 'r_bread', 'r_ana', 'r_doc', 'r_empty']),
        [
          read('r_ana', 'the kayak trip to Porto', 'ana lee', t0 + 2 * min),
          read('r_bread', 'bread recipe', 'bob', t0 + 7 * min),
          read('r_doc', 'kayak repairs manual', null, t0 + 4 * min, 'document'),
          read('r_empty', 'kayak said by nobody', null, t0 + 5 * min),
          read('r_long', long.slice(0, 2000), 'ana lee', t0 + 6 * min),
        ],
      );
      assert.deepEqual(await texts('brn_none', ['r_ana']), []);
      assert.deepEqual(await texts('brn_lc', []), []);
    });

    it('of a time window: the eligible Records in it, earliest first, up to the limit', async () => {
      const ids = async (over: Partial<SearchScope>, limit = 50) =>
        (await index!.inWindow(scope(over), limit)).map((h) => h.recordId);
      assert.deepEqual(await ids({ fromMs: t0 + min, toMs: t0 + 4 * min }), ['r_local', 'r_ana', 'r_none']);
      assert.deepEqual(await ids({ fromMs: t0 + min, toMs: t0 + 4 * min, excludeLocalOnly: true }), [
        'r_ana',
        'r_none',
      ]);
      assert.deepEqual(await ids({ fromMs: t0, toMs: t0 + 8 * min, sources: ['mail', 'chat'] }), [
        'r_bob',
        'r_ana',
      ]);
      assert.deepEqual(await ids({ fromMs: t0, toMs: t0 + 8 * min, sinceMs: t0 + 6 * min }), [
        'r_long',
        'r_bread',
      ]);
      assert.deepEqual(await ids({ fromMs: t0, toMs: t0 + 8 * min, asOfMs: t0 + min }), ['r_bob', 'r_local']);
      assert.deepEqual(await ids({ fromMs: t0, toMs: t0 + 8 * min }, 2), ['r_bob', 'r_local']);
      // Latest first (the time lane's days before a window, read for plans pointing into it).
      const newest = async (over: Partial<SearchScope>, limit: number) =>
        (await index!.inWindow(scope(over), limit, 'newest')).map((h) => h.recordId);
      assert.deepEqual(await newest({ fromMs: t0 + min, toMs: t0 + 4 * min }, 50), [
        'r_none',
        'r_ana',
        'r_local',
      ]);
      assert.deepEqual(await newest({ fromMs: t0, toMs: t0 + 8 * min, asOfMs: t0 + 6 * min }, 2), [
        'r_long',
        'r_empty',
      ]);
      assert.deepEqual(await ids({ fromMs: t0 + 9 * min, toMs: t0 + 10 * min }), []);
      const [bread] = await index!.inWindow(scope({ fromMs: t0 + 7 * min, toMs: t0 + 8 * min }), 5);
      assert.deepEqual(bread && { ...shape(bread), score: bread.score }, {
        id: 'r_bread',
        text: 'bread recipe',
        speaker: 'bob',
        at: t0 + 7 * min,
        score: 0,
      });
      assert.equal(await index!.anyInWindow(scope({ fromMs: t0 + 9 * min })), false);
      assert.equal(await index!.anyInWindow(scope({ fromMs: t0 + 7 * min })), true);
    });
  });

  describe(`the lexical index's vocabulary, ${name}`, { skip }, () => {
    it("counts the Brain's Records, and those with each word in their own text, up to the cap", async () => {
      const words = ['kayak', 'kayaks', 'porto', 'lesson', 'ana', 'zebra'];
      assert.deepEqual(await index!.textFrequencies('brn_lc', words, 500), {
        records: records.length,
        // "lesson" is also r_local's neighbour's word, and "ana" a speaker's: neither counts there.
        counts: [7, 7, 1, 1, 0, 0],
      });
      assert.deepEqual(await index!.textFrequencies('brn_lc', ['kayak', 'porto'], 3), {
        records: records.length,
        counts: [3, 1],
      });
      assert.deepEqual(await index!.textFrequencies('brn_none', ['kayak'], 500), { records: 0, counts: [0] });
      // Whether any says each word, as counted above.
      assert.deepEqual(await index!.saysWords('brn_lc', words), [true, true, true, true, false, false]);
      assert.deepEqual(await index!.saysWords('brn_none', ['kayak']), [false]);
      assert.deepEqual(await index!.saysWords('brn_lc', []), []);
      assert.deepEqual(await index!.textFrequencies('brn_lc', [], 500), {
        records: records.length,
        counts: [],
      });
    });
  });

  describe(`the lexical index's folding, ${name}`, { skip }, () => {
    it('finds a word whatever its case and accents, with ß as ss and a final sigma as sigma', async () => {
      const found = async (word: string) =>
        (await index!.search({ terms: [word], scope: scope({ brainUid: 'brn_fold' }), cut: 10, limit: 10 }))
          .map((h) => h.recordId)
          .sort();
      assert.deepEqual(await found('hauptstrasse'), ['r_street']);
      assert.deepEqual(await found('HAUPTSTRAẞE'), ['r_street']);
      assert.deepEqual(await found('bahnhofstraße'), ['r_shout']);
      assert.deepEqual(await found('οδός'), ['r_odos']);
      assert.deepEqual(await found('Ερμού'), ['r_odos']);
      assert.deepEqual(
        (await index!.textFrequencies('brn_fold', ['hauptstrasse', 'BAHNHOFSTRAẞE', 'οδός', 'straße'], 10))
          .counts,
        [1, 1, 1, 0],
      );
    });
  });

  describe(`the thread index, ${name}`, { skip }, () => {
    const threads = indexes?.threads;
    const nOf = async () =>
      new Map(
        (await index!.inWindow(scope({ fromMs: t0, toMs: t0 + 8 * min }), 50)).map((h) => [
          h.recordId,
          h.recordN,
        ]),
      );

    it("names each Record's thread, and the messages around one in thread order", async () => {
      const n = await nOf();
      const at = (id: string) => n.get(id)!;
      assert.deepEqual(
        await threads!.threadsOf([at('r_ana'), at('r_doc'), at('r_bread'), 987_654_321, at('r_ana')]),
        ['t1', null, 't2', null, 't1'],
      );
      assert.deepEqual(await threads!.threadsOf([]), []);
      const around = async (id: string, before: number, after: number) =>
        (await threads!.neighbours(at(id), before, after)).map((x) => {
          assert.equal(x.n, at(x.id));
          return [x.id, x.offset];
        });
      assert.deepEqual(await around('r_ana', 2, 1), [
        ['r_bob', -2],
        ['r_local', -1],
        ['r_none', 1],
      ]);
      assert.deepEqual(await around('r_bob', 1, 2), [
        ['r_local', 1],
        ['r_ana', 2],
      ]);
      assert.deepEqual(await around('r_long', 1, 5), [['r_empty', -1]]);
      assert.deepEqual(await around('r_ana', 0, 0), []);
      assert.deepEqual(await around('r_doc', 2, 2), [], 'a document is in no thread');
      assert.deepEqual(await around('r_bread', 2, 2), []);
    });

    it("names the Brain's speakers among a query's names, trimmed and lower-cased, each once, bytewise", async () => {
      const names = ['zed', 'bob', 'ana lee', 'ana', 'lee', '', 'BOB', 'ana lee ', 'kayak'];
      assert.deepEqual(await threads!.speakers('brn_lc', names), ['ana lee', 'bob']);
      assert.deepEqual(await threads!.speakers('brn_lc', ['bob', 'bob']), ['bob']);
      assert.deepEqual(await threads!.speakers('brn_none', names), []);
      assert.deepEqual(await threads!.speakers('brn_lc', []), []);
    });

    it("gives the reranker's facts of each Record, its neighbours those the scope lets through", async () => {
      const n = await nOf();
      const at = (id: string) => n.get(id)!;
      const facts = async (ids: string[], over: Partial<SearchScope> = {}) =>
        (await threads!.facts(ids, scope(over)))
          .map(({ recordN, ...f }) => {
            if (f.recordId !== 'r_emoji') assert.equal(recordN, at(f.recordId));
            return {
              ...f,
              around: f.around.map((x) => (x === null ? null : [...n].find(([, v]) => v === x)![0])),
            };
          })
          .sort((a, b) => (a.recordId < b.recordId ? -1 : 1));
      const fact = (
        id: string,
        text: string,
        speakerNorm: string | null,
        thread: string | null,
        around: (string | null)[],
      ) => ({
        recordId: id,
        length: [...text].length,
        question: text.includes('?'),
        text: text.slice(0, 2000),
        speakerNorm,
        thread,
        around,
      });
      const asked = ['r_long', 'r_ana', 'r_doc', 'r_missing', 'r_bread', 'r_emoji'];
      assert.deepEqual(await facts(asked), [
        fact('r_ana', 'the kayak trip to Porto', 'ana lee', 't1', ['r_bob', 'r_local', 'r_none', 'r_empty']),
        fact('r_bread', 'bread recipe', 'bob', 't2', [null, null, null, null]),
        fact('r_doc', 'kayak repairs manual', null, null, [null, null, null, null]),
        fact('r_emoji', 'Bread? 🍞 again', 'bob', 't3', [null, null, null, null]),
        fact('r_long', long, 'ana lee', 't1', ['r_none', 'r_empty', null, null]),
      ]);
      assert.equal((await facts(['r_emoji']))[0]!.length, 14);
      const around = async (id: string, over: Partial<SearchScope>) => (await facts([id], over))[0]!.around;
      assert.deepEqual(await around('r_ana', { excludeLocalOnly: true }), [
        null,
        'r_bob',
        'r_none',
        'r_empty',
      ]);
      assert.deepEqual(await around('r_ana', { sources: ['chat'] }), [null, null, null, null]);
      assert.deepEqual(await around('r_none', { untilMs: t0 + 5 * min }), [
        'r_local',
        'r_ana',
        'r_empty',
        null,
      ]);
      assert.deepEqual(await around('r_none', { sinceMs: t0 + min, asOfMs: t0 + 3 * min }), [
        'r_local',
        'r_ana',
        null,
        null,
      ]);
      assert.deepEqual(await facts(asked, { brainUid: 'brn_none' }), []);
      assert.deepEqual(await facts([]), []);
    });

    it('gives the message just before each Record, in the order asked, if the scope lets it through', async () => {
      const before = async (ids: string[], over: Partial<SearchScope> = {}) =>
        (await threads!.justBefore(ids, scope(over))).map((p) => [p.recordId, p.beforeId]);
      const asked = ['r_ana', 'r_bob', 'r_doc', 'r_bread', 'r_none', 'r_missing', 'r_long'];
      assert.deepEqual(await before(asked), [
        ['r_ana', 'r_local'],
        ['r_none', 'r_ana'],
        ['r_long', 'r_empty'],
      ]);
      assert.deepEqual(await before([...asked].reverse()), [
        ['r_long', 'r_empty'],
        ['r_none', 'r_ana'],
        ['r_ana', 'r_local'],
      ]);
      // r_local is hidden: r_ana has no prompt, not the message before that one.
      assert.deepEqual(await before(asked, { excludeLocalOnly: true }), [
        ['r_none', 'r_ana'],
        ['r_long', 'r_empty'],
      ]);
      assert.deepEqual(await before(asked, { sources: ['chat'] }), [['r_none', 'r_ana']]);
      assert.deepEqual(await before(asked, { untilMs: t0 + 2 * min }), [
        ['r_ana', 'r_local'],
        ['r_none', 'r_ana'],
      ]);
      assert.deepEqual(await before(asked, { sinceMs: t0 + 2 * min, asOfMs: t0 + 5 * min }), [
        ['r_none', 'r_ana'],
        ['r_long', 'r_empty'],
      ]);
      assert.deepEqual(await before(asked, { brainUid: 'brn_none' }), []);
      assert.deepEqual(await before([]), []);
    });
  });

  describe(`the vector index's reads beside the neighbours, ${name}`, { skip }, () => {
    it('name the Records a Memory cites, and those of a list that the scope lets through', async () => {
      const all = await index!.inWindow(scope({ fromMs: t0, toMs: t0 + 8 * min }), 50);
      const idOf = new Map(all.map((h) => [h.recordN, h.recordId]));
      const nOf = new Map(all.map((h) => [h.recordId, h.recordN]));
      const [a, b] = [await indexes!.memoryN('mem_a'), await indexes!.memoryN('mem_b')];
      const cited = await indexes!.vectors.cited('brn_lc', [a, b]);
      assert.deepEqual(
        cited
          .map((c) => `${c.memoryN === a ? 'mem_a' : c.memoryN === b ? 'mem_b' : '?'} ${idOf.get(c.recordN)}`)
          .sort(),
        ['mem_a r_ana', 'mem_a r_local', 'mem_b r_bread'],
      );
      assert.deepEqual(await indexes!.vectors.cited('brn_lc', []), []);
      const ns = ['r_ana', 'r_local', 'r_bob', 'r_long'].map((id) => nOf.get(id)!);
      const pass = async (over: Partial<SearchScope>) =>
        (await indexes!.vectors.inScope(ns, scope(over)))
          .map((r) => {
            assert.equal(idOf.get(r.n), r.id);
            return r.id;
          })
          .sort();
      assert.deepEqual(await pass({}), ['r_ana', 'r_bob', 'r_local', 'r_long']);
      assert.deepEqual(await pass({ excludeLocalOnly: true, untilMs: t0 + 2 * min }), ['r_ana', 'r_bob']);
      assert.deepEqual(await pass({ sources: ['chat'] }), ['r_ana']);
      assert.deepEqual(await pass({ brainUid: 'brn_none' }), []);
      assert.deepEqual(await indexes!.vectors.inScope([], scope()), []);
    });
  });
}

// Made at the top level: each closes after the file (`after`), not after the test that first used it.
conformance('over SQLite', sqliteIndexes());
conformance('over PostgreSQL (PGlite)', await pgIndexes(await migratedPglite()));
const server = await serverForTests();
conformance(
  'over a PostgreSQL server',
  server.skip ? null : await pgIndexes(await migratedDatabase(server.cluster())),
  server.skip,
);
