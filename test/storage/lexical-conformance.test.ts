import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgLexicalIndex } from '../../engine/adapters/postgres/lexical-index.ts';
import { migrate } from '../../engine/adapters/postgres/migrate.ts';
import {
  addBrain as addPgBrain,
  migratedPglite,
  serverForTests,
} from '../../engine/adapters/postgres/testing/fixtures.ts';
import { insertRecord } from '../../engine/adapters/postgres/testing/records.ts';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import { createSqliteLexicalIndex } from '../../engine/adapters/sqlite/lexical-index.ts';
import { tempStore } from '../../engine/adapters/sqlite/testing.ts';
import { createTurnCopies } from '../../engine/adapters/sqlite/turn-copies.ts';
import { createSqliteVectorIndex } from '../../engine/adapters/sqlite/vector-index.ts';
import type { LexicalHit, LexicalIndex, SearchScope } from '../../engine/ports/index.ts';
import { createRetrievalIndexer } from '../../engine/retrieve/retrieval-indexer.ts';

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
];

function content(r: Rec): Record<string, unknown> {
  return r.kind === 'document'
    ? { kind: 'document', text: r.text }
    : {
        kind: 'message',
        text: r.text,
        thread: r.id === 'r_bread' ? 't2' : 't1',
        ...(r.speaker !== undefined ? { speaker: r.speaker } : {}),
      };
}

function sqliteIndex(): LexicalIndex {
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
  const turns = createTurnCopies(store);
  const indexer = createRetrievalIndexer({
    store,
    indexes: { vectors: createSqliteVectorIndex(store, { now: () => '' }), turns },
    logger: { warn() {}, error() {} },
  });
  indexer.catchUp('brn_lc');
  return createSqliteLexicalIndex(store, turns);
}

async function pgIndex(db: PgClient): Promise<LexicalIndex> {
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
  return pgLexicalIndex(db);
}

async function migratedDatabase(cluster: ReturnType<typeof server.cluster>): Promise<PgClient> {
  const db = cluster.connect(await cluster.freshDatabase(), 2);
  await migrate(db);
  return db;
}

/** A hit without its score and rowid, which are the backend's own. */
const shape = (h: LexicalHit) => ({ id: h.recordId, text: h.text, speaker: h.speakerNorm, at: h.occurredMs });

function conformance(name: string, index: LexicalIndex | null, skip: string | false = false) {
  describe(`the lexical index's hits, ${name}`, { skip }, () => {
    const scope = (over: Partial<SearchScope> = {}): SearchScope => ({
      brainUid: 'brn_lc',
      excludeLocalOnly: false,
      ...over,
    });

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
}

// Made at the top level: each closes after the file (`after`), not after the test that first used it.
conformance('over SQLite', sqliteIndex());
conformance('over PostgreSQL (PGlite)', await pgIndex(await migratedPglite()));
const server = await serverForTests();
conformance(
  'over a PostgreSQL server',
  server.skip ? null : await pgIndex(await migratedDatabase(server.cluster())),
  server.skip,
);
