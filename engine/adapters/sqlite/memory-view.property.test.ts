import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { inForceAt, servedAt, statusAt } from '../../core/temporal/memory-time.ts';
import {
  history as anyHistory,
  instant,
  slotHistory,
  statuses,
  timesOf,
  type Version,
} from '../../core/temporal/testing/histories.ts';
import { hidesRecords } from '../../core/retrieve/hides-records.ts';
import type { Eligibility } from '../../retrieve/lane.ts';
import { eligibilitySql } from './eligibility-sql.ts';
import { inForceSql, servedSql, statusSql } from './memory-view.ts';
import type { SqlParam } from './store.ts';

/*
 * The rules of time exist twice: as SQL fragments the queries embed and as JS the code runs on rows
 * it holds. Each property below gives both the same random histories (core/temporal/testing/) on a
 * real SQLite database and asks for the same answer.
 */

const runs = { seed: 26, numRuns: 300 };

/** The columns the rules read, typed as the real table types them (STRICT: integers stay integers). */
function memoriesDb(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE memories (
    n INTEGER PRIMARY KEY, slot TEXT, valid_from_ms INTEGER NOT NULL, valid_to_ms INTEGER,
    status TEXT NOT NULL, revised_by TEXT, pending INTEGER NOT NULL) STRICT`);
  return db;
}

function insertHistory(db: Database.Database, history: Version[]): void {
  db.exec('DELETE FROM memories');
  const insert = db.prepare(
    'INSERT INTO memories (n, slot, valid_from_ms, valid_to_ms, status, revised_by, pending) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  history.forEach((v, n) =>
    insert.run(n, v.slot, v.valid_from_ms, v.valid_to_ms, v.status, v.revised_by, v.pending),
  );
}

function matching(db: Database.Database, q: { sql: string; params: SqlParam[] }): Set<number> {
  const rows = db.prepare(`SELECT n FROM memories m WHERE ${q.sql}`).all(...q.params) as { n: number }[];
  return new Set(rows.map((r) => r.n));
}

describe('the rules of time, SQL and JS', () => {
  it('statusSql and statusAt give every version of a history the same status at any now', () => {
    const db = memoriesDb();
    fc.assert(
      fc.property(anyHistory, instant, (history, now) => {
        insertHistory(db, history);
        for (const status of statuses) {
          const sql = matching(db, statusSql(status, now));
          const js = new Set(history.flatMap((v, n) => (statusAt(timesOf(v), now) === status ? [n] : [])));
          assert.deepEqual(sql, js, `status ${status} at ${now}`);
        }
      }),
      runs,
    );
  });

  it('inForceSql holds exactly where statusAt says active or scheduled', () => {
    const db = memoriesDb();
    fc.assert(
      fc.property(anyHistory, instant, (history, now) => {
        insertHistory(db, history);
        const js = new Set(
          history.flatMap((v, n) => (['active', 'scheduled'].includes(statusAt(timesOf(v), now)) ? [n] : [])),
        );
        assert.deepEqual(matching(db, inForceSql(now)), js);
      }),
      runs,
    );
  });

  it("derivation's inForceAt of a slot value is statusSql('active') at that world time", () => {
    const db = memoriesDb();
    fc.assert(
      fc.property(slotHistory, instant, (history, at) => {
        insertHistory(db, history);
        const js = new Set(history.flatMap((v, n) => (inForceAt(timesOf(v), at) ? [n] : [])));
        assert.deepEqual(matching(db, statusSql('active', at)), js);
      }),
      runs,
    );
  });

  it('servedSql serves exactly what servedAt serves, now and as of any instant', () => {
    const db = memoriesDb();
    const asOf = fc.option(instant, { nil: undefined });
    fc.assert(
      fc.property(anyHistory, asOf, instant, (history, at, now) => {
        insertHistory(db, history);
        const js = new Set(history.flatMap((v, n) => (servedAt(timesOf(v), at, now) ? [n] : [])));
        assert.deepEqual(matching(db, servedSql(at, now)), js);
      }),
      runs,
    );
  });

  it('eligibilitySql hides no Record but bare corrections when hidesRecords says the request hides none', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE records (n INTEGER PRIMARY KEY, id TEXT NOT NULL, brain_uid TEXT NOT NULL,
               kind TEXT NOT NULL, visibility TEXT NOT NULL, occurred_ms INTEGER NOT NULL, source_name TEXT) STRICT;
             CREATE TABLE citations (record_id TEXT NOT NULL) STRICT;`);
    const record = fc.record({
      brain_uid: fc.constantFrom('b1', 'b2'),
      kind: fc.constantFrom('message', 'fact', 'correction'),
      visibility: fc.constantFrom('shareable', 'local_only', 'redacted_summary'),
      occurred_ms: instant,
      source_name: fc.option(fc.constantFrom('mail', 'chat'), { nil: null }),
      cited: fc.boolean(),
    });
    // Each filter absent half the time, so requests that hide nothing are frequent.
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 1 });
    const eligibility: fc.Arbitrary<Eligibility> = fc.record({
      brainUid: fc.constant('b1'),
      excludeLocalOnly: fc.boolean(),
      sinceMs: maybe(instant),
      untilMs: maybe(instant),
      asOfMs: maybe(instant),
      sources: maybe(fc.array(fc.constantFrom('mail', 'chat'))),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), eligibility, (records, e) => {
        db.exec('DELETE FROM records; DELETE FROM citations;');
        const insert = db.prepare('INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?)');
        records.forEach((r, n) => {
          insert.run(n, `rec_${n}`, r.brain_uid, r.kind, r.visibility, r.occurred_ms, r.source_name);
          if (r.cited) db.prepare('INSERT INTO citations VALUES (?)').run(`rec_${n}`);
        });
        const el = eligibilitySql(e);
        const sql = db.prepare(`SELECT n FROM records r WHERE ${el.sql}`).all(...el.params) as {
          n: number;
        }[];
        const admitted = new Set(sql.map((r) => r.n));
        const ofBrain = records.flatMap((r, n) =>
          r.brain_uid === 'b1' && !(r.kind === 'correction' && !r.cited) ? [n] : [],
        );
        if (!hidesRecords(e)) assert.deepEqual(admitted, new Set(ofBrain));
        else for (const n of admitted) assert.ok(ofBrain.includes(n));
      }),
      runs,
    );
  });
});
