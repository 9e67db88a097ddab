import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLocalEngine } from '../../engine/local/index.ts';
import { latestSchemaVersion, migrate } from '../../engine/adapters/sqlite/migrate.ts';
import { migrations } from '../../engine/adapters/sqlite/migrations/index.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import { textKey } from '../../engine/adapters/sqlite/text-key.ts';
import { statementKeys } from '../../engine/adapters/sqlite/migrations/029-statement-keys.ts';
import { unmatchedCorrections } from '../../engine/adapters/sqlite/migrations/030-unmatched-corrections.ts';
import { keyStatements } from '../../engine/adapters/sqlite/statement-keys.ts';
import { turnText } from '../../engine/adapters/sqlite/turn-table.ts';
import {
  heldReachedSql,
  originalsSql,
  outboxParams,
  outboxSql,
  unsentRows,
} from '../../engine/adapters/sqlite/device-sync.ts';
import { recordChangesSql } from '../../engine/adapters/sqlite/record-repository.ts';
import { statementsSql } from '../../engine/adapters/sqlite/memory-repository.ts';
import { messageSpeakersSql } from '../../engine/adapters/sqlite/message-speakers.ts';
import { queryPlan, tempStore } from '../../engine/adapters/sqlite/testing.ts';
import type { SqlParam } from '../../engine/adapters/sqlite/store.ts';
import { healthWordsVersion } from '../../engine/contract/index.ts';
import { key, tempDir, tenant } from './local-helpers.ts';

/**
 * What migrations 15 to 18 add, taken away again to stand for a store written before them, with the
 * tables later ones add (their columns go with 18's tables).
 */
const undoMigrations15On = `DROP TABLE derive_upgrade; DROP INDEX memories_slot_predicate;
  DROP TABLE derive_failures; ALTER TABLE derive_queue DROP COLUMN attempts;
  DROP TRIGGER records_leave_tombstones; DROP TRIGGER brains_take_tombstones; DROP TABLE record_tombstones;
  DROP TABLE sync_pairings; DROP TABLE sync_records; DROP TABLE correction_outcomes;`;

/** A store set back to an older version loses the columns later migrations add, as it never had them. */
function withoutLaterColumns(db: ReturnType<typeof openDatabase>): void {
  db.exec(`ALTER TABLE sync_pairings RENAME COLUMN pull_skipped TO skipped;
    ALTER TABLE sync_pairings ADD COLUMN held_back INTEGER NOT NULL DEFAULT 0`); // 36
  db.exec('ALTER TABLE sync_pairings DROP COLUMN catching_up'); // 24
  db.exec('ALTER TABLE record_tombstones DROP COLUMN pulled_by'); // 25
  db.exec('DROP TABLE correction_outcomes'); // 26
  db.exec('DROP INDEX sync_records_skipped; ALTER TABLE sync_records DROP COLUMN skipped_under'); // 27
  for (const c of ['pull_skipped_from', 'pull_skipped_under', 'reread_watermark'])
    db.exec(`ALTER TABLE sync_pairings DROP COLUMN ${c}`); // 28
}

describe('local engine: migrations', () => {
  it('upgrades a schema-version-1 file: its Records get indexed, queued derivation runs, data is kept', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    assert.deepEqual(migrate(db, migrations.slice(0, 1)), [1]);
    // A Brain and a Record as version 1 wrote them (no full-text index existed then).
    db.prepare(
      `INSERT INTO brains (uid, project, env, id, name, created_at, seq) VALUES ('brn_old', 'acme', 'test', 'b', 'Old', '2024-01-01T00:00:00Z', 1)`,
    ).run();
    const content = { kind: 'message', text: 'The lighthouse keeper retired in 1999.', speaker: 'Ben' };
    db.prepare(
      `INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES ('rec_OLD1', 'brn_old', 1, 'message', ?, ?, 'medium', 'shareable', '2024-01-01T00:00:00Z', ?, '2024-01-01T00:00:00Z')`,
    ).run(JSON.stringify(content), content.text, Date.parse('2024-01-01T00:00:00Z'));
    db.prepare(
      `INSERT INTO derive_queue (brain_uid, job, record_id, record_seq) VALUES ('brn_old', 'derive', 'rec_OLD1', 1)`,
    ).run();
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    db.close();

    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      await engine.idle();
      assert.equal((await engine.getBrain(tenant, 'b')).name, 'Old');
      const rec = await engine.getRecord(tenant, 'b', 'rec_OLD1');
      assert.equal(rec.status, 'ready');
      const ctx = await engine.createContext(
        tenant,
        'b',
        { query: 'lighthouse keeper' },
        { requestId: 'req_m' },
      );
      assert.ok(ctx.status === 'ready');
      assert.deepEqual(ctx.citations, [{ record_id: 'rec_OLD1', quote: content.text }]);
      const mems = await engine.listMemories(tenant, 'b', { limit: 10 });
      assert.deepEqual(mems.data[0]?.owner, { state: 'other', entity: 'Ben' });
    } finally {
      await engine.close();
    }
    const after = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    assert.equal(after.pragma('user_version', { simple: true }), latestSchemaVersion);
    // Migration 12 gave the Record written before it its text's key, as a write now does.
    after.defaultSafeIntegers(true);
    const row = after.prepare("SELECT text_key FROM records WHERE id = 'rec_OLD1'").get() as {
      text_key: bigint;
    };
    assert.equal(row.text_key, textKey(content.text));
    after.close();
  });

  it('refuses a file written by a newer Mnemo', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    db.pragma(`user_version = ${latestSchemaVersion + 1}`);
    db.close();
    await assert.rejects(createLocalEngine({ dataDir, dbKey: key }), /newer than this Mnemo understands/);
  });

  it('13: a store indexed by version 12 (words of unspaced scripts whole) is indexed again by word', async () => {
    const dataDir = tempDir();
    const text = '先週、京都に行きました。';
    let n: number;
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b' });
      const rec = await engine.rememberRecord(tenant, 'b', { content: text }, {});
      await engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'message', speaker: '田中太郎', text: 'See you at the station.' } },
        {},
      );
      await engine.idle();
      await engine.close();
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      n = (db.prepare('SELECT n FROM records WHERE id = ?').get(rec.record.id) as { n: number }).n;
      // The store as version 12 left it: turn_fts with unicode61's default categories, holding the
      // sentence and the speaker's name as one token each, and the records_fts nothing read.
      const rows = db.prepare('SELECT rowid AS n, * FROM turn_fts').all() as Record<string, string>[];
      db.exec(`DROP TABLE turn_fts;
        CREATE VIRTUAL TABLE turn_fts USING fts5(text, speaker, before, after, scope,
          tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE records_fts USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');`);
      const put = db.prepare(
        'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
      );
      // Neither Record has a thread, so neither row holds neighbours' text.
      for (const r of rows)
        if (Number(r.n) === n) put.run(n, text, '', '', '', r.scope!);
        else put.run(r.n, 'See you at the station.', '田中太郎', '', '', r.scope!);
      db.prepare('DELETE FROM index_queue').run();
      // Migration 15's table, 16's index and 17's column and table and 18's sync tables are not there yet.
      db.exec(undoMigrations15On);
      db.pragma('user_version = 12');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      await engine.idle();
      const ctx = await engine.createContext(tenant, 'b', { query: '京都' }, { requestId: 'req_m13' });
      assert.ok(ctx.status === 'ready');
      assert.equal(ctx.citations.length, 1, 'found by the word once the row is indexed again');
      const byName = await engine.createContext(
        tenant,
        'b',
        { query: '田中太郎' },
        { requestId: 'req_m13b' },
      );
      assert.ok(byName.status === 'ready');
      assert.match(byName.citations[0]?.quote ?? '', /station/, 'a speaker indexed again, by word');
    } finally {
      await engine.close();
    }
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    const row = db.prepare('SELECT text FROM turn_fts WHERE rowid = ?').get(n) as { text: string };
    assert.equal(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'records_fts'").get(), undefined);
    const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'turn_fts'").get() as { sql: string })
      .sql;
    assert.match(sql, /categories ''L\* N\* Co M\*''/);
    assert.equal(row.text, ' 先週 、 京都 に 行き ま した 。 ');
    db.close();
  });

  it('14: slots split by how they were written are keyed again and joined into one lineage, settled', async () => {
    const dataDir = tempDir();
    const ids: string[] = [];
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      for (const [subject, value, at] of [
        ['me', '+351 111', '2020-01-01T00:00:00Z'],
        ['Ana', '+351 222', '2023-01-01T00:00:00Z'],
      ] as const) {
        const r = await engine.rememberRecord(
          tenant,
          'b',
          { content: { kind: 'fact', subject, predicate: 'phone', value }, occurred_at: at },
          {},
        );
        await engine.idle();
        ids.push((await engine.getRecord(tenant, 'b', r.record.id)).memory_ids[0]!);
      }
      await engine.close();
      // As version 13 left them: the "me" fact in a slot and lineage of its own, both numbers current.
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      db.prepare(
        `UPDATE memories SET slot = 'me' || char(31) || 'phone', lineage = 'lin_old', version = 1,
         status = 'active', valid_to = NULL, valid_to_ms = NULL WHERE id = ?`,
      ).run(ids[0]);
      db.prepare("UPDATE memories SET version = 1, cause = 'derived' WHERE id = ?").run(ids[1]);
      // Migration 15's table, 16's index and 17's column and table and 18's sync tables are not there yet.
      db.exec(undoMigrations15On);
      db.pragma('user_version = 13');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      const [old, now] = [
        await engine.getMemory(tenant, 'b', ids[0]!),
        await engine.getMemory(tenant, 'b', ids[1]!),
      ];
      assert.deepEqual([old.status, old.valid_to, old.version], ['superseded', '2023-01-01T00:00:00Z', 1]);
      assert.deepEqual([now.status, now.valid_to, now.version], ['active', null, 2]);
      const current = await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 });
      assert.deepEqual(
        current.data.map((m) => m.statement),
        ['Ana phone: +351 222'],
      );
    } finally {
      await engine.close();
    }
  });

  it('14: an old slot whose versions now belong to two people splits, and each new slot is one lineage', async () => {
    const dataDir = tempDir();
    const ids: string[] = [];
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      // "me" is the self; "Me." (written so by some import) is a person of that name.
      for (const [subject, predicate, value, at] of [
        ['Ana', 'lives in', 'Lisbon', '2020-01-01T00:00:00Z'],
        ['me', 'lives in', 'Porto', '2021-01-01T00:00:00Z'],
        ['Me.', 'lives in', 'Faro', '2022-01-01T00:00:00Z'],
        ['Me.', 'lives_in', 'Braga', '2023-01-01T00:00:00Z'],
      ] as const) {
        const r = await engine.rememberRecord(
          tenant,
          'b',
          { content: { kind: 'fact', subject, predicate, value }, occurred_at: at },
          {},
        );
        await engine.idle();
        ids.push((await engine.getRecord(tenant, 'b', r.record.id)).memory_ids[0]!);
      }
      await engine.close();
      // As version 13 keyed them: "me" and "Me." one slot (one lineage, L2), lives_in another (L3).
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      const old = [
        ['ana\u001flives in', 'L1', 1],
        ['me\u001flives in', 'L2', 1],
        ['me\u001flives in', 'L2', 2],
        ['me\u001flives_in', 'L3', 1],
      ] as const;
      old.forEach(([slot, lineage], i) =>
        db
          .prepare(
            "UPDATE memories SET slot = ?, lineage = ?, version = ?, status = 'active', valid_to = NULL, valid_to_ms = NULL WHERE id = ?",
          )
          .run(slot, lineage, 100 + i, ids[i]),
      );
      old.forEach(([, , version], i) =>
        db.prepare('UPDATE memories SET version = ? WHERE id = ?').run(version, ids[i]),
      );
      // Migration 15's table, 16's index and 17's column and table and 18's sync tables are not there yet.
      db.exec(undoMigrations15On);
      db.pragma('user_version = 13');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      const m = await Promise.all(ids.map((id) => engine.getMemory(tenant, 'b', id)));
      assert.deepEqual(
        m.map((x) => [x.statement, x.status, x.version]),
        [
          ['Ana lives in: Lisbon', 'superseded', 1],
          ['me lives in: Porto', 'active', 2],
          ['Me. lives in: Faro', 'superseded', 1],
          ['Me. lives in: Braga', 'active', 2],
        ],
      );
    } finally {
      await engine.close();
    }
  });

  it('21: turns indexed before full case folding are indexed again where they hold more than ASCII', async () => {
    const dataDir = tempDir();
    const said = [
      { text: 'We looked at flats all day', speaker: 'Ana' },
      { text: 'The one on Hauptstraße has a balcony', speaker: 'Ben' },
    ];
    const lunch = 'Lunch at noon';
    const n: Record<string, number> = {};
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b' });
      for (const s of said)
        await engine.rememberRecord(tenant, 'b', { content: { kind: 'message', thread: 't1', ...s } }, {});
      await engine.rememberRecord(tenant, 'b', { content: lunch }, {});
      await engine.idle();
      await engine.close();
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      for (const r of db.prepare('SELECT n, text FROM records').all() as { n: number; text: string }[])
        n[r.text] = r.n;
      // The rows as version 20 wrote them: the text as written, unicode61 folding it.
      const scope = (db.prepare('SELECT scope FROM turn_fts LIMIT 1').get() as { scope: string }).scope;
      db.prepare('DELETE FROM turn_fts').run();
      const put = db.prepare(
        'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const [looked, street] = said as [(typeof said)[0], (typeof said)[0]];
      put.run(n[looked.text], looked.text, looked.speaker, '', street.text, scope);
      put.run(n[street.text], street.text, street.speaker, looked.text, '', scope);
      put.run(n[lunch], lunch, '', '', '', scope);
      db.prepare('DELETE FROM index_queue').run();
      withoutLaterColumns(db);
      db.pragma('user_version = 20');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      await engine.idle();
      for (const query of ['Where is Hauptstrasse?', 'HAUPTSTRASSE']) {
        const ctx = await engine.createContext(tenant, 'b', { query }, { requestId: 'req_m21' });
        assert.ok(ctx.status === 'ready');
        // Its neighbour in the thread is found through its words too.
        assert.ok(
          ctx.citations.some((c) => c.quote === said[1]!.text),
          `${query}: ${JSON.stringify(ctx.citations)}`,
        );
      }
    } finally {
      await engine.close();
    }
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    const text = (m: number) =>
      (db.prepare('SELECT text FROM turn_fts WHERE rowid = ?').get(m) as { text: string }).text;
    assert.equal(text(n[said[1]!.text]!), 'the one on hauptstrasse has a balcony');
    assert.equal(text(n[said[0]!.text]!), 'we looked at flats all day', 'its neighbour is not ASCII');
    assert.equal(text(n[lunch]!), lunch, 'ASCII alone is not indexed again');
    db.close();
  });

  it('23: messages whose speaker is not ASCII are indexed again, their speaker folded', async () => {
    const dataDir = tempDir();
    const said = [
      { text: 'The ferry leaves at ten', speaker: 'José' },
      { text: 'The ferry leaves at nine', speaker: 'Ana' },
    ];
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b' });
      for (const s of said)
        await engine.rememberRecord(tenant, 'b', { content: { kind: 'message', thread: 't1', ...s } }, {});
      await engine.idle();
      await engine.close();
      // The rows as version 22 wrote them: the speaker lower-cased only.
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      db.prepare('UPDATE retrieval_index SET speaker_norm = lower(speaker)').run();
      db.prepare("UPDATE retrieval_index SET speaker_norm = 'josé' WHERE speaker = 'José'").run();
      db.prepare('DELETE FROM index_queue').run();
      withoutLaterColumns(db);
      db.pragma('user_version = 22');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      await engine.idle();
      const ctx = await engine.createContext(
        tenant,
        'b',
        { query: 'When does Jose say the ferry leaves?' },
        { requestId: 'req_m23' },
      );
      assert.ok(ctx.status === 'ready');
      const trace = await engine.getTrace(tenant, 'b', ctx.id);
      const entity = trace.lanes.find((l) => l.name === 'entity');
      assert.equal(entity?.candidates.length, 1, JSON.stringify(trace.lanes));
    } finally {
      await engine.close();
    }
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    const norms = db.prepare('SELECT speaker_norm FROM retrieval_index ORDER BY speaker_norm').all();
    assert.deepEqual(norms, [{ speaker_norm: 'ana' }, { speaker_norm: 'jose' }]);
    db.close();
  });
  it('26: a correction from another side that changed nothing is derived again, with the fallbacks', async () => {
    const dataDir = tempDir();
    let fact: string;
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b' });
      const content = { kind: 'fact' as const, subject: 'Ana', predicate: 'lives in', value: 'Porto' };
      fact = (await engine.rememberRecord(tenant, 'b', { content }, {})).record.id;
      await engine.idle();
      await engine.close();
      // A correction pulled and derived by version 25, which matched its Memory by statement alone:
      // written in other words where it came from, it found none, and changed nothing.
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      const correction = {
        kind: 'correction',
        corrects: 'mem_elsewhere',
        statement: 'Ana lives in Lisbon',
        target: { records: [fact], statement: 'Ana lives in the old town of Porto' },
      };
      const at = '2024-06-01T00:00:00.000Z';
      db.prepare(
        `INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
         SELECT 'rec_01M8GA4DNAKFBAD9VVVCSJ3999', uid, seq + 1, 'correction', ?, ?, 'medium', 'shareable', ?, ?, ?
         FROM brains WHERE id = 'b'`,
      ).run(JSON.stringify(correction), correction.statement, at, Date.parse(at), at);
      db.prepare("UPDATE brains SET seq = seq + 1 WHERE id = 'b'").run();
      withoutLaterColumns(db);
      db.pragma('user_version = 25');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      await engine.idle();
      const current = (await engine.listMemories(tenant, 'b', { limit: 10 })).data.map((m) => m.statement);
      assert.deepEqual(current, ['Ana lives in Lisbon']);
      const outcome = (await engine.getRecord(tenant, 'b', 'rec_01M8GA4DNAKFBAD9VVVCSJ3999'))
        .correction_outcome;
      assert.equal(outcome?.matched_by, 'slot');
    } finally {
      await engine.close();
    }
  });

  it('30: a correction stated before is marked unmatched, and a store set back runs 30 again', () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version < unmatchedCorrections.version),
      );
      db.prepare(
        `INSERT INTO brains (uid, project, env, id, name, created_at, seq) VALUES ('brn_old', 'acme', 'test', 'b', 'Old', '2024-01-01T00:00:00Z', 2)`,
      ).run();
      const at = '2024-06-01T00:00:00.000Z';
      for (const [seq, id, state, matchedBy] of [
        [1, 'rec_stated', 'applied_by_fallback', 'stated'],
        [2, 'rec_withdrawal', 'not_applied', null],
      ] as const) {
        db.prepare(
          `INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
           VALUES (?, 'brn_old', ?, 'correction', '{}', '', 'medium', 'shareable', ?, ?, ?)`,
        ).run(id, seq, at, Date.parse(at), at);
        db.prepare(
          `INSERT INTO correction_outcomes (record_id, brain_uid, state, matched_by, reason) VALUES (?, 'brn_old', ?, ?, 'why')`,
        ).run(id, state, matchedBy);
      }
      const marks = () =>
        db.prepare('SELECT record_id, unmatched FROM correction_outcomes ORDER BY record_id').all();
      const upTo30 = migrations.filter((m) => m.version <= unmatchedCorrections.version);
      assert.deepEqual(migrate(db, upTo30), [unmatchedCorrections.version]);
      // A withdrawal not applied before keeps no mark: nothing kept says why nothing matched it.
      assert.deepEqual(marks(), [
        { record_id: 'rec_stated', unmatched: 1 },
        { record_id: 'rec_withdrawal', unmatched: 0 },
      ]);
      db.pragma(`user_version = ${unmatchedCorrections.version - 1}`);
      assert.deepEqual(migrate(db, upTo30), [unmatchedCorrections.version], 'its column is there already');
      assert.equal(marks().length, 2);
      const index = db
        .prepare(`SELECT sql FROM sqlite_master WHERE name = 'correction_outcomes_unmatched'`)
        .get() as { sql: string };
      assert.match(index.sql, /WHERE unmatched = 1/);
    } finally {
      db.close();
    }
  });

  it("29: every Memory's norm is its statement's key, page after page", async () => {
    const dataDir = tempDir();
    const said = ['I love hiking.', 'Yeah, I really love to hike!', "I don't like rain.", 'I was hiking.'];
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b' });
      for (const text of said)
        await engine.rememberRecord(tenant, 'b', { content: { kind: 'message', text, speaker: 'user' } }, {});
      await engine.idle();
      await engine.close();
    }
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    try {
      assert.ok((db.pragma('user_version', { simple: true }) as number) >= statementKeys.version);
      const norms = () =>
        (db.prepare('SELECT norm FROM memories ORDER BY n').all() as { norm: string }[]).map((r) => r.norm);
      const keyed = ['i love hik', 'i do not like rain', 'i was hiking'];
      assert.deepEqual(norms(), keyed, 'the first two said one thing');
      // Keys of another version: keyed again, a row at a time, as in one page.
      db.prepare('UPDATE memories SET norm = lower(statement)').run();
      db.prepare("UPDATE meta SET value = '0' WHERE key = 'statement_keys'").run();
      assert.equal(keyStatements(db, 1), true);
      assert.deepEqual(norms(), keyed);
      assert.equal(keyStatements(db, 1), false, 'once');
    } finally {
      db.close();
    }
  });

  it('34: the sync status finds the Records held back and skipped by index, not by reading every fate', () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(db);
      for (const [fate, index] of [
        ['held_back', 'sync_records_held_back'],
        ['skipped', 'sync_records_skipped'],
      ] as const) {
        const plan = (
          db
            .prepare(
              `EXPLAIN QUERY PLAN SELECT record_id FROM sync_records WHERE brain_uid = 'brn_x' AND fate = '${fate}' ORDER BY record_id DESC LIMIT 5`,
            )
            .all() as { detail: string }[]
        )
          .map((r) => r.detail)
          .join('; ');
        assert.match(plan, new RegExp(index));
        assert.doesNotMatch(plan, /TEMP B-TREE/, 'in record order, with no sort');
        // The status's own statements, joined to the Records still here, read the fate's index first.
        for (const sql of [
          `SELECT count(*) ${unsentRows(fate)}`,
          `SELECT s.record_id ${unsentRows(fate)} ORDER BY s.record_id DESC LIMIT 5`,
        ]) {
          const steps = (
            db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('brn_x', 10) as { detail: string }[]
          ).map((r) => r.detail);
          assert.match(steps[0]!, new RegExp(`SEARCH s USING COVERING INDEX ${index}`), steps.join('; '));
          assert.ok(!steps.some((d) => /TEMP B-TREE/.test(d)), steps.join('; '));
        }
      }
    } finally {
      db.close();
    }
  });

  it('35: turns holding CJK or Hangul are indexed again with the bigrams of their compounds', async () => {
    const dataDir = tempDir();
    const tower = '東京タワーの近くのカフェで会った。';
    const seoul = '서울에 친구가 살아요.';
    const lunch = 'Lunch at noon';
    const n: Record<string, number> = {};
    {
      const engine = await createLocalEngine({ dataDir, dbKey: key });
      await engine.createBrain(tenant, { id: 'b' });
      for (const text of [tower, seoul, lunch])
        await engine.rememberRecord(tenant, 'b', { content: text }, {});
      await engine.idle();
      await engine.close();
      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      for (const r of db.prepare('SELECT n, text FROM records').all() as { n: number; text: string }[])
        n[r.text] = r.n;
      // The rows as version 34 wrote them: words, no bigrams.
      const rows = db.prepare('SELECT rowid AS n, scope FROM turn_fts').all() as {
        n: number;
        scope: string;
      }[];
      const put = db.prepare(
        'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
      );
      db.prepare('DELETE FROM turn_fts').run();
      for (const r of rows) {
        const text = Object.keys(n).find((t) => n[t] === r.n)!;
        put.run(r.n, turnText(text), '', '', '', r.scope);
      }
      db.prepare('DELETE FROM index_queue').run();
      db.pragma('user_version = 34');
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      await engine.idle();
      for (const [query, text] of [
        ['東京', tower],
        ['서울', seoul],
      ] as const) {
        const ctx = await engine.createContext(tenant, 'b', { query }, { requestId: 'req_m35' });
        assert.ok(ctx.status === 'ready');
        assert.deepEqual(
          ctx.citations.map((c) => c.quote),
          [text],
          query,
        );
      }
    } finally {
      await engine.close();
    }
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    const text = (m: number) =>
      (db.prepare('SELECT text FROM turn_fts WHERE rowid = ?').get(m) as { text: string }).text;
    assert.match(text(n[tower]!), /東京タワー 東京 京タ タワ ワー/);
    assert.equal(text(n[lunch]!), turnText(lunch), 'other rows are not indexed again');
    db.close();
  });

  it("36: a pairing's skipped count keeps only the pull's, the push's counted from its rows", () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 35),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'a', 'A', '2024-01-01T00:00:00Z', 3)`);
      for (const seq of [1, 2, 3])
        db.exec(`INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
          VALUES ('rec_${seq}', 'brn_a', ${seq}, 'document', '{"kind":"document","text":"t"}', 't', 'medium',
                  'shareable', '2024-01-01T00:00:00Z', 0, '2024-01-01T00:00:00Z')`);
      db.exec(`INSERT INTO sync_pairings (brain_uid, remote_url, remote_brain, remote_key, paired_at, pairing_id,
          push_seq, skipped, held_back)
        VALUES ('brn_a', 'https://hub.example.org/v1', 'a', 'sk', '2024-01-01T00:00:00Z', 'p1', 2, 5, 2)`);
      // Skipped by the push and counted: rec_1. Not counted: one the cursor has not passed (a fate of
      // an earlier pairing), and one forgotten.
      for (const id of ['rec_1', 'rec_3', 'rec_gone'])
        db.exec(`INSERT INTO sync_records (brain_uid, record_id, fate) VALUES ('brn_a', '${id}', 'skipped')`);
      migrate(db);
      assert.deepEqual(db.prepare('SELECT pull_skipped FROM sync_pairings').get(), { pull_skipped: 4 });
      const columns = (db.prepare('PRAGMA table_info(sync_pairings)').all() as { name: string }[]).map(
        (c) => c.name,
      );
      assert.ok(!columns.includes('held_back') && !columns.includes('skipped'));
    } finally {
      db.close();
    }
  });

  it('39: a Record held back before keeps no reason; one set back keeps the reasons it has', () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 37),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'a', 'A', '2024-01-01T00:00:00Z', 1)`);
      db.exec(`INSERT INTO sync_records (brain_uid, record_id, fate, remote_id)
        VALUES ('brn_a', 'rec_1', 'held_back', 'rec_2')`);
      migrate(db);
      assert.deepEqual(db.prepare('SELECT record_id, reason FROM sync_records').all(), [
        { record_id: 'rec_1', reason: null },
      ]);
      // A store set back runs it again, and keeps what it had.
      db.exec("UPDATE sync_records SET reason = 'why'");
      db.pragma('user_version = 37');
      migrate(db);
      assert.deepEqual(db.prepare('SELECT reason FROM sync_records').all(), [{ reason: 'why' }]);
    } finally {
      db.close();
    }
  });

  it("37: Memories written before have their owner's name folded, and a name finds them without accents", async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 36),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'b', 'B', '2024-01-01T00:00:00Z', 1)`);
      db.exec(`INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
        VALUES ('rec_1', 'brn_a', 1, 'document', '{"kind":"document","text":"t"}', 't', 'medium', 'shareable',
                '2024-01-01T00:00:00Z', 0, '2024-01-01T00:00:00Z')`);
      for (const [id, state, entity] of [
        ['mem_1', 'other', 'Zoë'],
        ['mem_2', 'other', 'ZOË'],
        ['mem_3', 'other', 'Ana'],
        ['mem_4', 'self', null],
      ] as const)
        // Its citation first, in one transaction: a Memory with none is refused.
        db.transaction(() => {
          db.prepare("INSERT INTO citations (memory_id, record_id, quote) VALUES (?, 'rec_1', 't')").run(id);
          db.prepare(
            `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, owner_entity,
             source_key, valid_from, valid_from_ms, status, seq, learned_at, cause)
           VALUES (?, 'brn_a', ?, 1, 't', 't', 'x', ?, ?, '', '2024-01-01T00:00:00Z', 0, 'active', 1,
                   '2024-01-01T00:00:00Z', 'derived')`,
          ).run(id, id, state, entity);
        })();
      const folded = () => db.prepare('SELECT id, owner_folded AS f FROM memories ORDER BY id').all();
      const want = [
        { id: 'mem_1', f: 'zoe' },
        { id: 'mem_2', f: 'zoe' },
        { id: 'mem_3', f: 'ana' },
        { id: 'mem_4', f: null },
      ];
      // 37 and those after it.
      assert.equal(migrate(db)[0], 37);
      assert.deepEqual(folded(), want);
      assert.equal(db.prepare("SELECT value FROM meta WHERE key = 'owner_folds'").get(), undefined, 'done');
      // A store set back runs it again.
      db.pragma('user_version = 36');
      assert.equal(migrate(db)[0], 37);
      assert.deepEqual(folded(), want);
    } finally {
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      const page = await engine.listMemories(tenant, 'b', { limit: 10, owner: 'zoe' });
      assert.deepEqual(
        page.data.map((m) => [m.id, m.owner.entity]),
        [
          ['mem_1', 'Zoë'],
          ['mem_2', 'ZOË'],
        ],
      );
    } finally {
      await engine.close();
    }
  });

  it('38: a pairing has no warning until a run finds one; a store set back migrates again', () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 37),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'a', 'A', '2024-01-01T00:00:00Z', 0)`);
      db.exec(`INSERT INTO sync_pairings (brain_uid, remote_url, remote_brain, remote_key, paired_at, pairing_id)
        VALUES ('brn_a', 'https://hub.example.org/v1', 'a', 'sk', '2024-01-01T00:00:00Z', 'p1')`);
      const upTo38 = migrations.filter((m) => m.version <= 38);
      assert.deepEqual(migrate(db, upTo38), [38]);
      assert.deepEqual(db.prepare('SELECT warning FROM sync_pairings').get(), { warning: null });
      db.pragma('user_version = 37');
      assert.deepEqual(migrate(db, upTo38), [38]);
    } finally {
      db.close();
    }
  });

  it('40: Memories written before are marked for health, as are all again under other words, and the profile puts them first', async () => {
    const dataDir = tempDir();
    const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 39),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, self_type, self_name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'b', 'B', 'person', 'Ana', '2024-01-01T00:00:00Z', 1)`);
      db.exec(`INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
        VALUES ('rec_1', 'brn_a', 1, 'document', '{"kind":"document","text":"t"}', 't', 'medium', 'shareable',
                '2024-01-01T00:00:00Z', 0, '2024-01-01T00:00:00Z')`);
      for (const [id, state, statement, at] of [
        ['mem_1', 'self', "I'm allergic to penicillin.", '2024-01-01T00:00:00Z'],
        ['mem_2', 'self', 'I love hiking.', '2024-02-01T00:00:00Z'],
        ['mem_3', 'other', 'Bob is allergic to cats.', '2024-03-01T00:00:00Z'],
      ] as const)
        // Its citation first, in one transaction: a Memory with none is refused.
        db.transaction(() => {
          db.prepare("INSERT INTO citations (memory_id, record_id, quote) VALUES (?, 'rec_1', 't')").run(id);
          db.prepare(
            `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, owner_entity,
             source_key, valid_from, valid_from_ms, status, seq, learned_at, cause)
           VALUES (?, 'brn_a', ?, 1, ?, ?, 'Ana', ?, NULL, '', ?, ?, 'active', 1, '2024-01-01T00:00:00Z', 'derived')`,
          ).run(id, id, statement, statement.toLowerCase(), state, at, Date.parse(at));
        })();
      const marks = () => db.prepare('SELECT id, health FROM memories ORDER BY id').all();
      const want = [
        { id: 'mem_1', health: 1 },
        { id: 'mem_2', health: 0 },
        { id: 'mem_3', health: 1 },
      ];
      const upTo40 = migrations.filter((m) => m.version <= 40);
      const version = () => db.prepare("SELECT value FROM meta WHERE key = 'health_lines'").get();
      assert.deepEqual(migrate(db, upTo40), [40]);
      assert.deepEqual(marks(), want);
      assert.deepEqual(version(), { value: String(healthWordsVersion) });
      // Marked by other words (an earlier version's): all marked again when the store opens.
      db.exec(
        "UPDATE memories SET health = 1 WHERE id = 'mem_2'; UPDATE meta SET value = '0' WHERE key = 'health_lines'",
      );
      assert.deepEqual(migrate(db, upTo40), []);
      assert.deepEqual(marks(), want);
      // A store set back runs it again.
      db.pragma('user_version = 39');
      assert.deepEqual(migrate(db, upTo40), [40]);
      assert.deepEqual(marks(), want);
    } finally {
      db.close();
    }
    const engine = await createLocalEngine({ dataDir, dbKey: key });
    try {
      const profile = await engine.getProfile(tenant, 'b', { limit: 1 });
      assert.deepEqual(
        profile.lines.map((l) => [l.memory_id, l.group]),
        [['mem_1', 'health']],
        'the older allergy before the newer everyday line',
      );
    } finally {
      await engine.close();
    }
  });

  it('41: a pairing has dropped no field until a push does; a store set back migrates again', () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 40),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'a', 'A', '2024-01-01T00:00:00Z', 0)`);
      db.exec(`INSERT INTO sync_pairings (brain_uid, remote_url, remote_brain, remote_key, paired_at, pairing_id)
        VALUES ('brn_a', 'https://hub.example.org/v1', 'a', 'sk', '2024-01-01T00:00:00Z', 'p1')`);
      const upTo41 = migrations.filter((m) => m.version <= 41);
      assert.deepEqual(migrate(db, upTo41), [41]);
      assert.deepEqual(db.prepare('SELECT fields_dropped FROM sync_pairings').get(), { fields_dropped: 0 });
      db.pragma('user_version = 40');
      assert.deepEqual(migrate(db, upTo41), [41]);
    } finally {
      db.close();
    }
  });

  it('44: Records that came from a remote are marked where a replica id tells it; the guard counts by the hour', () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(
        db,
        migrations.filter((m) => m.version <= 43),
      );
      db.exec(`INSERT INTO brains (uid, project, env, id, name, created_at, seq)
        VALUES ('brn_a', 'acme', 'test', 'a', 'A', '2024-01-01T00:00:00Z', 4)`);
      db.exec(`INSERT INTO sync_pairings (brain_uid, remote_url, remote_brain, remote_key, paired_at, pairing_id)
        VALUES ('brn_a', 'https://hub.example.org/v1', 'a', 'sk', '2024-01-01T00:00:00Z', 'p1')`);
      const record =
        db.prepare(`INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility,
          occurred_at, occurred_ms, created_at)
        VALUES (?, 'brn_a', ?, 'document', '{"kind":"document","text":"t"}', 't', 'medium', ?,
                '2024-01-01T00:00:00Z', 0, '2024-01-01T00:00:00Z')`);
      const fate = db.prepare(`INSERT INTO sync_records (brain_uid, record_id, fate, remote_id, from_remote)
        VALUES ('brn_a', ?, ?, ?, ?)`);
      // This device's own: a shareable one and a redacted one (pushed as its copy).
      record.run('rec_own', 1, 'shareable');
      fate.run('rec_own', 'pushed', 'rec_own', 0);
      record.run('rec_ownsum', 2, 'redacted_summary');
      fate.run('rec_ownsum', 'pushed', 'rec_copy', 0);
      // Pulled before 42, pushed again when the pairing started over: a redacted copy made elsewhere.
      record.run('rec_pulledsum', 3, 'redacted_summary');
      fate.run('rec_pulledsum', 'pushed', 'rec_pulledsum', 0);
      record.run('rec_pulled', 4, 'shareable');
      fate.run('rec_pulled', 'pulled', 'rec_pulled', 1);
      const upTo44 = migrations.filter((m) => m.version <= 44);
      const marks = () =>
        db.prepare('SELECT record_id, from_remote, first_refused FROM sync_records ORDER BY record_id').all();
      const want = [
        { record_id: 'rec_own', from_remote: 0, first_refused: 0 },
        { record_id: 'rec_ownsum', from_remote: 0, first_refused: 0 },
        { record_id: 'rec_pulled', from_remote: 1, first_refused: 0 },
        { record_id: 'rec_pulledsum', from_remote: 1, first_refused: 0 },
      ];
      const hours = () => db.prepare('SELECT remote_forget_hours AS h FROM sync_pairings').get();
      assert.deepEqual(migrate(db, upTo44), [44]);
      assert.deepEqual(marks(), want);
      // The guard's day starts empty.
      assert.deepEqual(hours(), { h: null });
      db.pragma('user_version = 43');
      assert.deepEqual(migrate(db, upTo44), [44]);
      assert.deepEqual(marks(), want);
    } finally {
      db.close();
    }
  });

  it("32: a forget finds a Brain's corrections by index, not by reading all its Records", () => {
    const db = openDatabase({ file: join(tempDir(), 'mnemo.db'), key });
    try {
      migrate(db);
      const plan = (
        db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT r.id FROM records r WHERE r.brain_uid = 'brn_x' AND r.kind = 'correction'`,
          )
          .all() as { detail: string }[]
      )
        .map((r) => r.detail)
        .join('; ');
      assert.match(plan, /records_corrections/);
    } finally {
      db.close();
    }
  });

  it("45: what reads on from a seq takes a range of the Brain's Records, and the sync status reads none", () => {
    const store = tempStore('mnemo-migrated-');
    const plan = (sql: string, ...params: SqlParam[]) => queryPlan(store, sql, ...params).split('\n');
    const speakers = plan(messageSpeakersSql, 'brn_x', 10);
    assert.match(
      speakers.join('; '),
      /SEARCH records USING INDEX records_brain_seq \(brain_uid=\? AND seq>\?\)/,
    );
    assert.ok(!speakers.some((d) => /TEMP B-TREE/.test(d)), speakers.join('; '));
    // The outbox's first part: the Records after the push cursor.
    const outbox = plan(outboxSql, ...outboxParams('brn_x', 10, 1));
    assert.match(outbox.join('; '), /SEARCH r USING INDEX records_brain_seq \(brain_uid=\? AND seq>\?\)/);
    // The changes feed, from a step and from a step and id, in the index's order.
    for (const [q, range] of [
      [{ afterSeq: 10, limit: 50, hideLocalOnly: false }, /seq>\?/],
      [{ afterSeq: 10, afterId: 'rec_a', limit: 50, hideLocalOnly: true }, /\(seq,id\)>\(\?,\?\)/],
    ] as const) {
      const feed = recordChangesSql('brn_x', q);
      const steps = plan(feed.sql, ...feed.params);
      assert.match(
        steps[0]!,
        /^SEARCH r USING INDEX records_brain_seq \(brain_uid=\? AND /,
        steps.join('; '),
      );
      assert.match(steps[0]!, range, steps.join('; '));
      assert.ok(!steps.some((d) => /TEMP B-TREE/.test(d)), steps.join('; '));
    }
    // A sync status's held forgets and a remote's forget start from their own rows, not the Records.
    for (const steps of [
      plan(`SELECT count(DISTINCT r.id) AS c ${heldReachedSql}`, 'brn_x', 'pair_1'),
      plan(originalsSql(true), 'brn_x', '["rec_r"]'),
    ])
      assert.ok(
        !steps.some((d) => /(SCAN|SEARCH) r USING (COVERING )?INDEX \w+ \(brain_uid=\?\)$/.test(d)),
        steps.join('; '),
      );
  });

  it("46: a plan's change reads its owner's statements, or a mail source's, not the Brain's", () => {
    const store = tempStore('mnemo-migrated-');
    const plan = (q: { sql: string; params: SqlParam[] }) => queryPlan(store, q.sql, ...q.params).split('\n');
    for (const [owner_state, owner_entity] of [
      ['self', null],
      ['other', 'Hiro'],
    ] as const)
      for (const ahead of [false, true]) {
        const steps = plan(
          statementsSql('brn_x', {
            owner_state,
            owner_entity,
            words: ['trip', 'dentist'],
            beforeMs: 1,
            limit: 5,
            ahead,
          }),
        );
        assert.match(
          steps.join('; '),
          new RegExp(
            String.raw`^SEARCH memories USING INDEX memories_owner_statements \(brain_uid=\? AND owner_state=\? AND owner_entity=\? AND valid_from_ms${ahead ? '>' : '<'}\?\)$`,
          ),
        );
      }
    const told = plan(
      statementsSql('brn_x', { source_key: 'mbox', words: ['Lisbon'], beforeMs: 1, limit: 5 }),
    );
    assert.match(
      told.join('; '),
      /^SEARCH memories USING INDEX memories_source_statements \(brain_uid=\? AND source_key=\? AND valid_from_ms<\?\)$/,
    );
    store.close();
  });

  it("47: a plan's words are tested on the index's copy of each statement, in the order they began", () => {
    const store = tempStore('mnemo-migrated-');
    const columns = (index: string) =>
      store
        .all<{ name: string | null; key: number }>(`PRAGMA index_xinfo(${index})`)
        .filter((c) => c.key === 1)
        .map((c) => c.name);
    assert.deepEqual(columns('memories_owner_statements'), [
      'brain_uid',
      'owner_state',
      'owner_entity',
      'valid_from_ms',
      'n',
      'statement',
    ]);
    assert.deepEqual(columns('memories_source_statements'), [
      'brain_uid',
      'source_key',
      'valid_from_ms',
      'n',
      'statement',
    ]);
    store.close();
  });
});
