import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate, tablesMade } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { healthWordsVersion } from '../../contract/index.ts';
import { markHealthLines } from './health-lines.ts';
import { keyStatements } from './statement-keys.ts';
import { pgLexicalIndex } from './lexical-index.ts';
import { pgMemories } from './memory-repository.ts';
import { pgThreadIndex } from './thread-index.ts';
import { addBrain, migrateThrough, serverForTests } from './testing/fixtures.ts';
import type { PgClient } from './client.ts';
import { pglite, reusedPgliteDatabases } from './testing/pglite.ts';
import { insertMemory, insertRecord } from './testing/records.ts';

const versions = migrations.map((m) => m.version);

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const planNodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(planNodes)];

/** A Brain's Memory repository over `db` that keeps each query it sends, to explain them after. */
function recordedMemories(db: PgClient, brainUid: string) {
  const seen: { sql: string; params: readonly unknown[] }[] = [];
  const memories = pgMemories(
    {
      query: (sql, params = []) => {
        seen.push({ sql, params });
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
    },
    brainUid,
  );
  return { memories, seen };
}

/** Asserts that PostgreSQL's plan for a query sent reads `index`. */
async function assertReadsIndex(
  db: PgClient,
  sent: { sql: string; params: readonly unknown[] },
  index: string,
): Promise<void> {
  const plan = (
    await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${sent.sql}`, sent.params)
  ).rows[0]!['QUERY PLAN'][0].Plan;
  const steps = planNodes(plan);
  assert.ok(
    steps.some((n) => n['Index Name'] === index),
    steps.map((n) => `${n['Node Type']} ${n['Index Name'] ?? ''}`).join(' > '),
  );
}
// Each test gets a never-migrated database: the one the test before had, put back to blank (its
// catalog checked to be as it was first opened), instead of a new PGlite each (~0.9 CPU s).
const blankDatabases = await reusedPgliteDatabases();
let handedOut: PgClient | undefined;
const blank = async () => {
  await handedOut?.close();
  handedOut = await blankDatabases();
  return handedOut;
};

describe('migrations on an embedded PostgreSQL', () => {
  it('applies every migration once, records it, and applies nothing the second time', async () => {
    const db = await blank();
    const first = await migrate(db);
    assert.deepEqual(first.applied, versions);
    const again = await migrate(db);
    assert.deepEqual(again.applied, []);
    const recorded = await db.query<{ version: number }>(
      'SELECT version FROM mnemo_migrations ORDER BY version',
    );
    assert.deepEqual(
      recorded.rows.map((r) => r.version),
      versions,
    );
  });

  it('without pgvector: no vector storage, and the reason recorded for the server to say at start', async () => {
    const db = await blank();
    const r = await migrate(db);
    assert.equal(r.vector, false);
    assert.match(r.vectorReason ?? '', /vector extension \(pgvector\) is not installed/);
    const meta = await db.query<{ key: string; value: string }>(
      "SELECT key, value FROM mnemo_meta WHERE key LIKE 'vector%' ORDER BY key",
    );
    assert.deepEqual(
      meta.rows.map((m) => [m.key, m.value.slice(0, 10)]),
      [
        ['vector', 'off'],
        ['vector_reason', 'the vector'],
      ],
    );
    const table = await db.query("SELECT to_regclass('embeddings') AS t");
    assert.equal((table.rows[0] as { t: string | null }).t, null);
  });

  it('with pgvector: the embeddings table with a vector column, recorded as on', async () => {
    const db = await pglite({ vector: true });
    const r = await migrate(db);
    assert.deepEqual([r.vector, r.vectorReason], [true, null]);
    const col = await db.query<{ t: string }>(
      "SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'embeddings'::regclass AND attname = 'embedding'",
    );
    assert.equal(col.rows[0]?.t, 'vector');
    assert.equal((await migrate(db)).vector, true);
  });

  it('refuses a database migrated by a newer Mnemo, changing nothing', async () => {
    const db = await blank();
    await migrate(db);
    await db.query("INSERT INTO mnemo_migrations (version, name) VALUES (999, 'from-the-future')");
    await assert.rejects(migrate(db), /schema is at version 999, newer than this Mnemo knows/);
  });

  it("refuses a schema holding another application's table of a name it uses, creating nothing", async () => {
    const db = await blank();
    await db.exec('CREATE TABLE records (id integer PRIMARY KEY, title text)');
    await assert.rejects(
      migrate(db),
      /schema "public" already holds tables Mnemo did not make \(records\); give Mnemo a database of its own, or a schema of its own: CREATE SCHEMA mnemo, then add \?options=-c%20search_path%3Dmnemo to the URL/,
    );
    const left = await db.query<{ t: string | null }>("SELECT to_regclass('mnemo_migrations')::text AS t");
    assert.equal(left.rows[0]?.t, null);
    // The way the message gives: a schema of its own, beside the other application's table.
    await db.exec('CREATE SCHEMA mnemo; SET search_path = mnemo');
    assert.deepEqual((await migrate(db)).applied, versions);
    const where = await db.query<{ s: string }>(
      "SELECT relnamespace::regnamespace::text AS s FROM pg_class WHERE relname = 'records' ORDER BY 1",
    );
    assert.deepEqual(
      where.rows.map((r) => r.s),
      ['mnemo', 'public'],
    );
  });

  it('says which search_path names no schema, rather than that none was selected', async () => {
    const db = await blank();
    await db.exec('SET search_path = nowhere');
    await assert.rejects(migrate(db), /no schema on its search_path \(nowhere\) exists; create one/);
  });

  it('knows the tables its migrations make, and not those made only if missing', () => {
    const made = tablesMade(migrations);
    for (const t of ['records', 'memories', 'brains', 'api_keys', 'derive_jobs'])
      assert.ok(made.includes(t), t);
    assert.ok(!made.includes('mnemo_migrations'));
    assert.deepEqual(
      tablesMade([
        {
          version: 1,
          name: 'x',
          sql: 'CREATE TABLE IF NOT EXISTS a (x int); create unlogged table "B" (y int)',
        },
      ]),
      ['b'],
    );
  });

  it('18: turns folded before full case folding are folded again, and those of ASCII words left alone', async () => {
    const db = await blank();
    await migrateThrough(db, 17);
    await addBrain(db, 'brn_fold');
    const say = (id: string, text: string, at: number) =>
      insertRecord(db, {
        brainUid: 'brn_fold',
        id,
        text,
        content: { kind: 'message', text, thread: 't1' },
        occurredMs: at,
      });
    await say('r_ascii', 'We looked at flats all day', 1);
    await say('r_street', 'The one on Hauptstraße has a balcony', 2);
    await say('r_greek', 'ΟΔΟΣ ΕΡΜΟΥ was closed', 3);
    await insertRecord(db, { brainUid: 'brn_fold', id: 'r_alone', text: 'lunch at noon', occurredMs: 4 });
    const versions = async () =>
      new Map(
        (
          await db.query<{ id: string; xmin: string }>(
            `SELECT r.id, t.xmin::text AS xmin FROM turns t JOIN records r USING (brain_uid, n)
             WHERE t.brain_uid = 'brn_fold'`,
          )
        ).rows.map((r) => [r.id, r.xmin]),
      );
    const lexical = pgLexicalIndex(db);
    const found = async (word: string) =>
      (
        await lexical.search({
          terms: [word],
          scope: { brainUid: 'brn_fold', excludeLocalOnly: false },
          cut: 10,
          limit: 10,
        })
      )
        .map((h) => h.recordId)
        .sort();
    const before = await versions();
    assert.deepEqual(await found('hauptstraße'), ['r_ascii', 'r_greek', 'r_street'], 'folded as 016 did');

    assert.deepEqual(
      (await migrate(db)).applied,
      migrations.filter((m) => m.version > 17).map((m) => m.version),
    );
    // The search word is folded by the new mnemo_fold: the turns must hold "strasse" now. r_ascii's
    // turn holds its neighbour's "Hauptstraße" (and r_greek's, two before it, too).
    assert.deepEqual(await found('hauptstrasse'), ['r_ascii', 'r_greek', 'r_street']);
    assert.deepEqual(await found('HAUPTSTRASSE'), ['r_ascii', 'r_greek', 'r_street']);
    assert.deepEqual(await found('οδός'), ['r_greek', 'r_street']);
    const after = await versions();
    assert.equal(after.get('r_alone'), before.get('r_alone'), 'a turn of ASCII words is not written again');
    for (const id of ['r_ascii', 'r_street', 'r_greek']) assert.notEqual(after.get(id), before.get(id), id);
  });

  it("27: the turns' index takes writes at once, and finds turns written before and after", async () => {
    const db = await blank();
    await migrateThrough(db, 26);
    await addBrain(db, 'brn_gin');
    const say = (id: string, text: string, at: number) =>
      insertRecord(db, { brainUid: 'brn_gin', id, text, content: { kind: 'message', text }, occurredMs: at });
    await say('r_before', 'The ferry to Ilha leaves at ten', 1);
    await migrate(db);
    await say('r_after', 'A ferry ticket costs four euros', 2);
    const options = await db.query<{ o: string[] | null }>(
      "SELECT reloptions AS o FROM pg_class WHERE oid = 'turns_tsv'::regclass",
    );
    assert.deepEqual(options.rows[0]?.o, ['fastupdate=off']);
    const scope = { brainUid: 'brn_gin', excludeLocalOnly: false };
    const found = await pgLexicalIndex(db).search({ terms: ['ferry'], scope, cut: 10, limit: 10 });
    assert.deepEqual(found.map((h) => h.recordId).sort(), ['r_after', 'r_before']);
  });

  it('20: a speaker is found folded, through an index of its folded name', async () => {
    const db = await blank();
    await migrate(db);
    await addBrain(db, 'brn_names');
    for (const [id, speaker] of [
      ['r_jose', 'José'],
      ['r_zoe', ' ZOË '],
      ['r_ana', 'Ana'],
    ] as const)
      await insertRecord(db, {
        brainUid: 'brn_names',
        id,
        text: 'The ferry leaves at ten',
        content: { kind: 'message', text: 'The ferry leaves at ten', speaker },
        occurredMs: 1,
      });
    const threads = pgThreadIndex(db);
    assert.deepEqual(await threads.speakers('brn_names', ['jose', 'zoe', 'ana', 'ben']), [
      'ana',
      'jose',
      'zoe',
    ]);
    const indexes = (
      await db.query<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE tablename = 'records' AND indexname LIKE 'records_speaker%'",
      )
    ).rows.map((r) => r.indexname);
    assert.deepEqual(indexes, ['records_speaker_folded']);
  });

  it('22: a correction from another side that changed nothing is derived again', async () => {
    const db = await blank();
    await migrateThrough(db, 21);
    await addBrain(db, 'brn_fix');
    const travelled = (id: string, seq: number) =>
      insertRecord(db, {
        brainUid: 'brn_fix',
        id,
        seq,
        kind: 'correction',
        text: 'Ana lives in Lisbon',
        content: {
          kind: 'correction',
          corrects: 'mem_elsewhere',
          statement: 'Ana lives in Lisbon',
          target: { records: ['rec_fact'], statement: 'Ana lives in the old town of Porto' },
        },
      });
    await insertRecord(db, { brainUid: 'brn_fix', id: 'rec_fact', text: 'Ana lives in: Porto', seq: 1 });
    await travelled('rec_unapplied', 2);
    // Applied: its new version cites it.
    await travelled('rec_applied', 3);
    await insertMemory(db, 'brn_fix', 'mem_lisbon', 'rec_applied', 'Ana lives in Lisbon');
    // Written here: no target, applied as it was written.
    await insertRecord(db, {
      brainUid: 'brn_fix',
      id: 'rec_written',
      seq: 4,
      kind: 'correction',
      text: 'retracted mem_x',
      content: { kind: 'correction', corrects: 'mem_x' },
    });
    await migrate(db);
    const queued = await db.query<{ record_id: string; record_seq: number }>(
      "SELECT record_id, record_seq::int AS record_seq FROM derive_jobs WHERE brain_uid = 'brn_fix'",
    );
    assert.deepEqual(queued.rows, [{ record_id: 'rec_unapplied', record_seq: 2 }]);
  });

  it("23: every Memory's norm is its statement's key, page after page; a later twin's Records are listed", async () => {
    const db = await blank();
    await migrateThrough(db, 22);
    await db.query("INSERT INTO mnemo_meta (key, value) VALUES ('derived_by', 'rules-v19')");
    const said = [
      { brain: 'brn_a', record: 'rec_1', memory: 'mem_1', text: 'I love hiking.' },
      { brain: 'brn_a', record: 'rec_2', memory: 'mem_2', text: 'I really love hiking!' },
      { brain: 'brn_b', record: 'rec_3', memory: 'mem_3', text: 'Yeah, I love to hike.' },
    ];
    for (const b of ['brn_a', 'brn_b']) await addBrain(db, b);
    const records = new Map<string, number>();
    for (const [i, s] of said.entries()) {
      records.set(
        s.record,
        await insertRecord(db, { brainUid: s.brain, id: s.record, text: s.text, seq: i + 1 }),
      );
      // Its norm as the statement lower-cased: keyed by no rule of today's.
      await insertMemory(db, s.brain, s.memory, s.record, s.text);
    }
    const norms = async () =>
      (await db.query<{ id: string; norm: string }>('SELECT id, norm FROM memories ORDER BY id')).rows;

    await migrate(db);
    const keyed = [
      { id: 'mem_1', norm: 'i love hik' },
      { id: 'mem_2', norm: 'i love hik' },
      { id: 'mem_3', norm: 'i love hik' },
    ];
    assert.deepEqual(await norms(), keyed);
    const listed = await db.query<{ brain_uid: string; n: number; deriver: string }>(
      'SELECT brain_uid, n::int AS n, deriver FROM derive_upgrade',
    );
    assert.deepEqual(
      listed.rows,
      [{ brain_uid: 'brn_a', n: records.get('rec_2'), deriver: 'rules-v19' }],
      "the later of brn_a's two, and not brn_b's one of the same key",
    );

    // Keys of another version: keyed again, a row at a time across Brains, as in one page.
    await db.query('UPDATE memories SET norm = lower(statement)');
    await db.query("UPDATE mnemo_meta SET value = '0' WHERE key = 'statement_keys'");
    assert.equal(await keyStatements(db, 1), true);
    assert.deepEqual(await norms(), keyed);
    assert.equal(await keyStatements(db, 1), false, 'once');

    // Pages over Memories numbered past 9 follow the numbers, not their digits ('10' before '9').
    for (let i = 4; i <= 14; i++) await insertMemory(db, 'brn_a', `mem_${i}`, 'rec_1', 'I love hiking.');
    await db.query('UPDATE memories SET norm = lower(statement)');
    await db.query("UPDATE mnemo_meta SET value = '0' WHERE key = 'statement_keys'");
    assert.equal(await keyStatements(db, 3), true);
    assert.deepEqual([...new Set((await norms()).map((r) => r.norm))], ['i love hik']);
  });

  it('24: a correction stated before is marked unmatched, a withdrawal not applied before is not', async () => {
    const db = await blank();
    await migrateThrough(db, 23);
    await addBrain(db, 'brn_a');
    for (const [seq, id, state, matchedBy] of [
      [1, 'rec_stated', 'applied_by_fallback', 'stated'],
      [2, 'rec_withdrawal', 'not_applied', null],
    ] as const) {
      await insertRecord(db, { brainUid: 'brn_a', id, text: '', seq });
      await db.query(
        `INSERT INTO correction_outcomes (brain_uid, record_id, state, matched_by, reason)
         VALUES ('brn_a', $1, $2, $3, 'why')`,
        [id, state, matchedBy],
      );
    }
    assert.deepEqual(await migrateThrough(db, 24), [24]);
    const marks = await db.query<{ record_id: string; unmatched: boolean }>(
      'SELECT record_id, unmatched FROM correction_outcomes ORDER BY record_id',
    );
    // Nothing kept says why nothing matched the withdrawal.
    assert.deepEqual(marks.rows, [
      { record_id: 'rec_stated', unmatched: true },
      { record_id: 'rec_withdrawal', unmatched: false },
    ]);
  });

  it('25: a withdrawal not applied before is marked unmatched and derived again', async () => {
    const db = await blank();
    await migrateThrough(db, 24);
    await addBrain(db, 'brn_a');
    const target = { records: ['rec_said'], statement: 'I keep two cats.' };
    for (const [seq, id, state, content, missing] of [
      [1, 'rec_withdrawal', 'not_applied', { kind: 'correction', corrects: 'mem_x', target }, null],
      [2, 'rec_waiting', 'not_applied', { kind: 'correction', corrects: 'mem_x', target }, ['rec_said']],
      [
        3,
        'rec_fix',
        'not_applied',
        { kind: 'correction', corrects: 'mem_x', statement: 'two dogs', target },
        null,
      ],
      [4, 'rec_applied', 'applied', { kind: 'correction', corrects: 'mem_x', target }, null],
    ] as const) {
      await insertRecord(db, { brainUid: 'brn_a', id, text: '', seq, kind: 'correction', content });
      await db.query(
        `INSERT INTO correction_outcomes (brain_uid, record_id, state, reason, missing)
         VALUES ('brn_a', $1, $2, 'why', $3)`,
        [id, state, missing === null ? null : JSON.stringify(missing)],
      );
    }
    assert.deepEqual(await migrateThrough(db, 25), [25]);
    const marks = await db.query<{ record_id: string; unmatched: boolean }>(
      'SELECT record_id, unmatched FROM correction_outcomes ORDER BY record_id',
    );
    // Only the withdrawal that matched nothing: one waiting for Records, a statement, one applied are not.
    assert.deepEqual(
      marks.rows.filter((r) => r.unmatched).map((r) => r.record_id),
      ['rec_withdrawal'],
    );
    const jobs = await db.query<{ record_id: string }>(
      "SELECT record_id FROM derive_jobs WHERE brain_uid = 'brn_a' AND job = 'derive'",
    );
    assert.deepEqual(
      jobs.rows.map((r) => r.record_id),
      ['rec_withdrawal'],
    );
  });

  it("31: an owner's page by name reads the folded owners' index, first and by cursor, as before", async () => {
    const db = await blank();
    await migrateThrough(db, 30);
    await addBrain(db, 'brn_owners');
    await insertRecord(db, { brainUid: 'brn_owners', id: 'rec_1', text: 'hello' });
    // 3,000 Memories of 50 people, 6 of them Zoë's, spelt three ways.
    await db.query(
      `WITH m AS (
         INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, owner_entity,
                               source_key, valid_from, valid_from_ms, status, seq, learned_at, cause)
         SELECT 'brn_owners', 'mem_' || lpad(i::text, 5, '0'), 'mem_' || lpad(i::text, 5, '0'), 1, 'a fact',
                'a fact', 'someone', 'other',
                CASE WHEN i % 500 = 7 THEN (ARRAY['Zoë', 'ZOË', 'zoe'])[i % 3 + 1] ELSE 'Ana ' || i % 50 END,
                'k', '2026-01-01T00:00:00Z', 0, 'active', 1, '2026-01-01T00:00:00Z', 'derived'
         FROM generate_series(1, 3000) i RETURNING id)
       INSERT INTO citations (brain_uid, memory_id, record_id, quote) SELECT 'brn_owners', id, 'rec_1', 'q' FROM m`,
    );
    const { memories, seen } = recordedMemories(db, 'brn_owners');
    const pages = async () => {
      const ids: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await memories.list({
          owner: { folded: ['zoe'] },
          limit: 4,
          cursor,
          nowMs: 0,
          status: 'all',
          shareableOnly: true,
        });
        ids.push(page.rows.map((r) => r.id));
        cursor = page.next ?? undefined;
      } while (cursor !== undefined);
      return ids;
    };
    const before = await pages();
    assert.deepEqual(before, [
      ['mem_00007', 'mem_00507', 'mem_01007', 'mem_01507'],
      ['mem_02007', 'mem_02507'],
    ]);

    assert.deepEqual(await migrateThrough(db, 31), [31]);
    await db.query('ANALYZE memories');
    seen.length = 0;
    assert.deepEqual(await pages(), before);
    assert.equal(seen.length, 2, 'a first page and one by cursor');
    // Hosted (shareableOnly): the Memories are read in id order off the index, joined to their Records.
    for (const sent of seen) await assertReadsIndex(db, sent, 'memories_owner_folded');
    // The names a filter may name: one probe of an index per name, owners' off this one.
    seen.length = 0;
    const owners = await memories.ownerNames();
    assert.deepEqual(owners.sort(), [...Array.from({ length: 50 }, (_, i) => `ana ${i}`), 'zoe'].sort());
    assert.deepEqual(await memories.subjectNames(), ['someone']);
    await assertReadsIndex(db, seen[0]!, 'memories_owner_folded');
    await assertReadsIndex(db, seen[1]!, 'memories_brain_subject');
  });

  it("32: the open tasks a deed may have done are a range of the statement keys' bytes", async () => {
    const db = await blank();
    await migrateThrough(db, 31);
    await addBrain(db, 'brn_tasks');
    await insertRecord(db, { brainUid: 'brn_tasks', id: 'rec_1', text: 'hello' });
    // 3,000 Memories, three of them open tasks that start with renewing; one is someone else's.
    await db.query(
      `WITH m AS (
         INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, owner_entity,
                               source_key, valid_from, valid_from_ms, status, seq, learned_at, cause)
         SELECT 'brn_tasks', 'mem_' || lpad(i::text, 5, '0'), 'lin_' || i, 1, s.statement, lower(s.statement),
                'Ana', CASE WHEN i = 2000 THEN 'other' ELSE 'self' END, CASE WHEN i = 2000 THEN 'Rui' END,
                'k', '2026-01-01T00:00:00Z', i, 'active', 1, '2026-01-01T00:00:00Z', 'derived'
         FROM generate_series(1, 3000) i
         CROSS JOIN LATERAL (SELECT CASE WHEN i IN (7, 1500, 2000) THEN 'to do renew passport ' || i
                                         WHEN i = 8 THEN 'to do-renew passport'
                                         WHEN i = 9 THEN 'to do renewal forms'
                                         ELSE 'a fact ' || i END AS statement) s
         RETURNING id)
       INSERT INTO citations (brain_uid, memory_id, record_id, quote) SELECT 'brn_tasks', id, 'rec_1', 'q' FROM m`,
    );
    assert.deepEqual(await migrateThrough(db, 32), [32]);
    await db.query('ANALYZE memories');
    const { memories, seen } = recordedMemories(db, 'brn_tasks');
    const found = await memories.statementsStarting({
      keyStart: 'to do renew ',
      owner_state: 'self',
      owner_entity: null,
      beforeMs: 3000,
      limit: 10,
    });
    assert.deepEqual(
      found.map((m) => m.id),
      ['mem_01500', 'mem_00007'],
    );
    await assertReadsIndex(db, seen[0]!, 'memories_brain_norm_bytes');
  });

  it('33: turns holding words joined by punctuation are written again, and found by each word', async () => {
    const db = await blank();
    await migrateThrough(db, 32);
    await addBrain(db, 'brn_files');
    const say = (id: string, text: string, at: number, thread: string) =>
      insertRecord(db, {
        brainUid: 'brn_files',
        id,
        text,
        content: { kind: 'message', text, thread },
        occurredMs: at,
      });
    await say('r_photo', '[attachment: mum-garden.jpg]', 1, 'ana');
    await say('r_reply', 'Lovely roses!', 2, 'ana');
    await say('r_notes', 'Saved it to notes_2024.md', 3, 'self');
    await say('r_lunch', 'Lunch at noon, then the garden centre.', 4, 'ben');
    const versions = async () =>
      new Map(
        (
          await db.query<{ id: string; xmin: string }>(
            `SELECT r.id, t.xmin::text AS xmin FROM turns t JOIN records r USING (brain_uid, n)
             WHERE t.brain_uid = 'brn_files'`,
          )
        ).rows.map((r) => [r.id, r.xmin]),
      );
    const lexical = pgLexicalIndex(db);
    const found = async (word: string) =>
      (
        await lexical.search({
          terms: [word],
          scope: { brainUid: 'brn_files', excludeLocalOnly: false },
          cut: 10,
          limit: 10,
        })
      )
        .map((h) => h.recordId)
        .sort();
    const before = await versions();
    assert.deepEqual(await found('garden'), ['r_lunch'], 'the file name one token, as 032 left it');

    assert.deepEqual(await migrateThrough(db, 33), [33]);
    // The reply's turn holds the photo's words too, as the message before it.
    assert.deepEqual(await found('garden'), ['r_lunch', 'r_photo', 'r_reply']);
    assert.deepEqual(await found('mum'), ['r_photo', 'r_reply']);
    assert.deepEqual(await found('jpg'), ['r_photo', 'r_reply']);
    assert.deepEqual(await found('notes'), ['r_notes']);
    assert.deepEqual(await found('2024'), ['r_notes']);
    const after = await versions();
    assert.equal(
      after.get('r_lunch'),
      before.get('r_lunch'),
      'a turn whose words are the same is not written',
    );
    for (const id of ['r_photo', 'r_reply', 'r_notes']) assert.notEqual(after.get(id), before.get(id), id);
  });

  it("34: Memories written before are marked for health, all again under other words, and the profile's health lines are read on their index", async () => {
    const db = await blank();
    await migrateThrough(db, 33);
    await addBrain(db, 'brn_h');
    await insertRecord(db, { brainUid: 'brn_h', id: 'rec_1', text: 'hello' });
    // 3,000 of the self's Memories, two of them health (one someone else's too), the newest everyday.
    await db.query(
      `WITH m AS (
         INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, owner_entity,
                               source_key, valid_from, valid_from_ms, status, seq, learned_at, cause)
         SELECT 'brn_h', 'mem_' || lpad(i::text, 5, '0'), 'lin_' || i, 1, s.statement, lower(s.statement),
                'Ana', CASE WHEN i = 2000 THEN 'other' ELSE 'self' END, CASE WHEN i = 2000 THEN 'Rui' END,
                'k', '2026-01-01T00:00:00Z', i, 'active', 1, '2026-01-01T00:00:00Z', 'derived'
         FROM generate_series(1, 3000) i
         CROSS JOIN LATERAL (SELECT CASE WHEN i IN (7, 2000) THEN 'I am allergic to penicillin ' || i
                                         WHEN i = 9 THEN 'I take insulin'
                                         ELSE 'a fact ' || i END AS statement) s
         RETURNING id)
       INSERT INTO citations (brain_uid, memory_id, record_id, quote) SELECT 'brn_h', id, 'rec_1', 'q' FROM m`,
    );
    const marked = async () =>
      (await db.query<{ id: string }>('SELECT id FROM memories WHERE health ORDER BY id')).rows.map(
        (r) => r.id,
      );
    assert.deepEqual(await migrateThrough(db, 34), [34]);
    assert.deepEqual(await marked(), ['mem_00007', 'mem_00009', 'mem_02000']);
    const version = await db.query("SELECT value FROM mnemo_meta WHERE key = 'health_lines'");
    assert.deepEqual(version.rows, [{ value: String(healthWordsVersion) }]);
    // Marked by other words (an earlier version's): all marked again, across pages (of 999 rows: the
    // marked rows fall in the first and the third, and a page ends one row before mem_02000).
    await db.query("UPDATE memories SET health = (id = 'mem_00100')");
    await db.query("UPDATE mnemo_meta SET value = '0' WHERE key = 'health_lines'");
    assert.equal(await markHealthLines(db, 999), true);
    assert.deepEqual(await marked(), ['mem_00007', 'mem_00009', 'mem_02000']);
    assert.equal(await markHealthLines(db, 999), false, 'once');

    await db.query('ANALYZE memories');
    const { memories, seen } = recordedMemories(db, 'brn_h');
    const nowMs = Date.parse('2027-01-01T00:00:00Z');
    const health = await memories.currentOfSelf({ nowMs, shareableOnly: false, limit: 51, group: 'health' });
    assert.deepEqual(
      health.map((m) => m.id),
      ['mem_00009', 'mem_00007'],
    );
    await assertReadsIndex(db, seen[0]!, 'memories_self_health_from');
    // A write marks its Memory, and a statement changed in place is marked again.
    const other = await memories.currentOfSelf({ nowMs, shareableOnly: false, limit: 2, group: 'other' });
    assert.deepEqual(
      other.map((m) => m.id),
      ['mem_03000', 'mem_02999'],
    );
    // Each line said before from the same Record is looked for by its statement's key: 3,000 Memories
    // of one Record are not each compared with every other.
    await assertReadsIndex(db, seen[1]!, 'memories_brain_norm');
    await memories.update('mem_03000', { statement: 'I use a wheelchair' });
    await memories.update('mem_00009', { statement: 'I took the train' });
    assert.deepEqual(await marked(), ['mem_00007', 'mem_02000', 'mem_03000']);
  });

  it("35: a plan's change reads its owner's statements, or a mail source's, on their indexes", async () => {
    const db = await blank();
    await migrate(db);
    await addBrain(db, 'brn_p');
    await insertRecord(db, { brainUid: 'brn_p', id: 'rec_1', text: 'hello' });
    // 3,000 statements of 30 people (one from mail) and 100 of the self's, none of the words looked for.
    await db.query(
      `WITH m AS (
         INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, owner_entity,
                               source_key, valid_from, valid_from_ms, status, seq, learned_at, cause)
         SELECT 'brn_p', 'mem_' || i, 'lin_' || i, 1, 'a fact ' || i, 'a fact ' || i, 'someone',
                CASE WHEN i <= 100 THEN 'self' ELSE 'other' END, CASE WHEN i > 100 THEN 'p' || (i % 30) END,
                CASE WHEN i = 3000 THEN 'mbox' ELSE '' END, '2026-01-01T00:00:00Z', i, 'active', 1,
                '2026-01-01T00:00:00Z', 'derived'
         FROM generate_series(1, 3100) i
         RETURNING id)
       INSERT INTO citations (brain_uid, memory_id, record_id, quote) SELECT 'brn_p', id, 'rec_1', 'q' FROM m`,
    );
    await db.query('ANALYZE memories');
    const { memories, seen } = recordedMemories(db, 'brn_p');
    const looked = { words: ['dentist'], beforeMs: 10_000, limit: 5 };
    const ids = (rows: { id: string }[]) => rows.map((m) => m.id);
    assert.deepEqual(
      await memories.statementsSaying({ ...looked, owner_state: 'other', owner_entity: 'p7' }),
      [],
    );
    // The earliest begun from an instant on, of one person.
    const ahead = { ...looked, words: [], beforeMs: 0, ahead: true };
    assert.deepEqual(
      ids(await memories.statementsSaying({ ...ahead, owner_state: 'other', owner_entity: 'p7' })),
      ['mem_127', 'mem_157', 'mem_187', 'mem_217', 'mem_247'],
    );
    assert.deepEqual(ids(await memories.statementsToldFrom({ ...looked, words: [], source_key: 'mbox' })), [
      'mem_3000',
    ]);
    // The self's, whose name is none: by IS NULL, which an index takes (IS NOT DISTINCT FROM is not).
    assert.deepEqual(
      await memories.statementsSaying({ ...looked, owner_state: 'self', owner_entity: null }),
      [],
    );
    assert.equal(seen.length, 4);
    for (const sent of seen.slice(0, 2)) await assertReadsIndex(db, sent, 'memories_owner_statements');
    await assertReadsIndex(db, seen[2]!, 'memories_source_statements');
    await assertReadsIndex(db, seen[3]!, 'memories_owner_statements');
  });

  it('every table of Brain data leads its primary key with brain_uid', async () => {
    const db = await blank();
    await migrate(db);
    const keys = await db.query<{ table: string; first: string }>(
      `SELECT c.conrelid::regclass::text AS table, a.attname AS first
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       WHERE c.contype = 'p' AND c.connamespace = 'public'::regnamespace ORDER BY 1`,
    );
    // Not Brain data: the schema's own tables, the Brains themselves (keyed by their uid), the tenant
    // directory of Brain names, the keys of every tenant (and the processes keeping copies of them)
    // and the embedding models.
    const notBrainData = new Set([
      'mnemo_meta',
      'mnemo_migrations',
      'brain_names',
      'api_keys',
      'mnemo_key_epoch',
      'mnemo_key_watchers',
      'embedding_models',
    ]);
    const brainData = keys.rows.filter((k) => !notBrainData.has(k.table));
    assert.ok(brainData.length >= 11, `${brainData.length} tables`);
    for (const k of brainData) {
      assert.equal(k.first, k.table === 'brains' ? 'uid' : 'brain_uid', `${k.table}'s primary key`);
    }
  });
});

const server = await serverForTests();
describe('migrations on a PostgreSQL server', { skip: server.skip }, () => {
  it('processes starting together all succeed, and each migration is applied once', async () => {
    const cluster = server.cluster();
    const url = await cluster.freshDatabase();
    // A slow second migration widens the window in which a process without the lock would race.
    const list = [...migrations, { version: 900, name: 'slow', sql: 'SELECT pg_sleep(0.3)' }];
    const clients = Array.from({ length: 6 }, () => cluster.connect(url, 2));
    const results = await Promise.all(clients.map((c) => migrate(c, list)));
    const applied = results.flatMap((r) => r.applied).sort((a, b) => a - b);
    assert.deepEqual(applied, [...versions, 900]);
    const recorded = await clients[0]!.query<{ c: number }>(
      'SELECT count(*)::int AS c FROM mnemo_migrations',
    );
    assert.equal(recorded.rows[0]?.c, list.length);
    // Each process finds the vector storage as the server offers it (Debian 12 ships no pgvector; a
    // server built with it has it), and all of them alike.
    const offered = await clients[0]!.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
    for (const r of results) assert.equal(r.vector, offered.rows.length > 0);
  });
});
